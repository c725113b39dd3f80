#if os(Linux)
    import Foundation
    import LocationLogTesting
    import Testing

    /// The shadow has Apple's shape: one module per framework, so a shell file that forgets
    /// `import CoreLocation` fails to build on Linux as it does in Xcode. This suite typechecks the
    /// shell's sources with the compiler and the modules `swift build` made, once as they are and
    /// once with one import removed.
    @Suite("AppleShadow: a forgotten import fails on Linux")
    struct ShadowImportTests {
        /// The package's root, found from this file's path.
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// The folder of the modules `swift build` wrote for this test run (beside the test
        /// bundle), or the default debug one.
        static func modulesDirectory() throws -> URL {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            var candidates: [URL] = []
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("Modules"))
                folder = folder.deletingLastPathComponent()
            }
            candidates.append(root.appendingPathComponent(".build/debug/Modules"))
            let found = candidates.first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("ShadowCoreLocation.swiftmodule").path)
            }
            return try #require(
                found, "no ShadowCoreLocation.swiftmodule in \(candidates.map(\.path)): run swift build")
        }

        /// `swiftc -typecheck` of the shell's sources as `swift build` compiles them (Swift 6, the
        /// package's upcoming features). Returns the exit status and what the compiler printed.
        static func typecheck(_ files: [URL]) async throws -> (status: Int32, output: String) {
            let modules = try modulesDirectory()
            var arguments = [
                "-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "BackgroundTracker",
                "-package-name", "BackgroundTracker", "-I", modules.path,
            ]
            for feature in ["ExistentialAny", "MemberImportVisibility", "InternalImportsByDefault"] {
                arguments += ["-enable-upcoming-feature", feature]
            }
            // The C modules the Swift modules were built against: zlib and GRDB's SQLite.
            let maps = [
                root.appendingPathComponent("Sources/CZlib/module.modulemap"),
                root.appendingPathComponent(".build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap"),
            ]
            for map in maps where FileManager.default.fileExists(atPath: map.path) {
                arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
            let command = ["swiftc"] + arguments + files.map(\.path)
            // The compiler runs for seconds: waited for on a thread of its own, not the pool.
            return try await offThePool {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = command
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                try process.run()
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: output, as: UTF8.self))
            }
        }

        /// A copy of the shell's sources in a fresh folder, with `edit` applied to one file.
        static func shellSources(editing name: String, _ edit: (String) -> String) throws -> [URL] {
            let source = root.appendingPathComponent("Sources/BackgroundTracker")
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
                "shadow-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            let names = try #require(FileManager.default.enumerator(atPath: source.path)?.allObjects as? [String])
            var files: [URL] = []
            for relative in names where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: source.appendingPathComponent(relative), encoding: .utf8)
                let target = copy.appendingPathComponent(relative.replacingOccurrences(of: "/", with: "_"))
                try (relative.hasSuffix(name) ? edit(text) : text).write(to: target, atomically: true, encoding: .utf8)
                files.append(target)
            }
            return files
        }

        @Test("the shell's sources typecheck as they are, and not with `import CoreLocation` removed")
        func removingCoreLocationBreaksTheBuild() async throws {
            let untouched = try await Self.typecheck(Self.shellSources(editing: "LocationAdapter.swift") { $0 })
            #expect(untouched.status == 0, "the shell should typecheck as it is:\n\(untouched.output)")

            var removed = false
            let edited = try Self.shellSources(editing: "LocationAdapter.swift") { text in
                let lines = text.components(separatedBy: "\n")
                let kept = lines.filter { !$0.hasSuffix("import ShadowCoreLocation") }
                removed = kept.count == lines.count - 1
                return kept.joined(separator: "\n")
            }
            #expect(removed, "LocationAdapter.swift no longer imports ShadowCoreLocation: update this test")
            let broken = try await Self.typecheck(edited)
            #expect(broken.status != 0, "removing the import should fail the build")
            #expect(
                broken.output.contains("LocationAdapter.swift")
                    && (broken.output.contains("CLLocationManager") || broken.output.contains("ShadowCoreLocation")),
                "the failure should name Core Location in LocationAdapter.swift:\n\(broken.output)")
        }
    }
#endif

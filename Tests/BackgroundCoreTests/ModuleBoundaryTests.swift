import Foundation
import Testing

/// Issue 10, item 5: the sans-IO core imports nothing but the standard library (and the C math
/// library for sin/cos), and the phone's `LocationLog` carries no networking: the Linux device's
/// URLSession transports, loop and route files live in `LinuxDevice`.
@Suite struct ModuleBoundaryTests {
    static let sources: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every `import` line of a target's Swift files, with the file it is in.
    static func imports(of target: String) throws -> [(file: String, module: String)] {
        let root = sources.appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var found: [(String, String)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ ["public", "internal", "package", "@testable"].contains($0) })
                else { continue }
                found.append((url.lastPathComponent, String(words[index + 1])))
            }
        }
        return found
    }

    @Test func backgroundCoreImportsOnlyTheStandardLibraryAndLibm() throws {
        let found = try Self.imports(of: "BackgroundCore")
        #expect(!found.isEmpty, "the scan found no imports at all: is the path right?")
        let allowed: Set = ["Darwin", "Glibc", "Musl"]
        for (file, module) in found {
            #expect(allowed.contains(module), "\(file) imports \(module)")
        }
    }

    @Test func locationLogHasNoNetworkingAndNoDeviceCode() throws {
        let found = try Self.imports(of: "LocationLog")
        #expect(found.contains { $0.module == "GRDB" })
        // The one `BatchRequest` → `URLRequest` builder (a value both the Linux device and the iOS
        // shell send) needs FoundationNetworking on Linux; nothing in LocationLog sends anything.
        #expect(
            !found.contains { $0.module == "FoundationNetworking" && $0.file != "BatchRequest+URLRequest.swift" },
            "\(found.filter { $0.module.hasPrefix("Foundation") })")
        let root = Self.sources.appendingPathComponent("LocationLog")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "swift" {
            let code = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            #expect(
                !code.contains { $0.contains("URLSession") },
                "\(url.lastPathComponent) uses URLSession: it belongs in LinuxDevice")
        }
        let sources = try #require(
            FileManager.default.enumerator(
                at: Self.sources.appendingPathComponent("LocationLog"), includingPropertiesForKeys: nil))
        let names = sources.compactMap { ($0 as? URL)?.lastPathComponent }
        for moved in [
            "DeviceLoop.swift", "RouteFile.swift", "URLSessionBatchTransport.swift", "ClientProtocolTransport.swift",
        ] {
            #expect(!names.contains(moved), "\(moved) belongs in LinuxDevice")
        }
    }

    /// Issue 42: the server's geometry, exports and timeline are in `TrackGeometry`, which no app
    /// links; the library's `LocationLog` keeps what the phone uses.
    @Test func locationLogHasNoServerGeometry() throws {
        let files = try #require(
            FileManager.default.enumerator(
                at: Self.sources.appendingPathComponent("LocationLog"), includingPropertiesForKeys: nil))
        let names = Set(files.compactMap { ($0 as? URL)?.lastPathComponent })
        #expect(names.contains("LocationStore.swift"), "the scan found no files at all: is the path right?")
        for moved in [
            "SampleValues.swift", "Simplification.swift", "DetailLevels.swift", "Gaps.swift", "EncodedPolyline.swift",
            "TrackExport.swift", "ExportLocalTime.swift", "TimelineExport.swift",
        ] {
            #expect(!names.contains(moved), "\(moved) belongs in TrackGeometry")
        }
        let library = try PackageManifestTests.manifest("Package.swift")
        #expect(!library.contains("TrackGeometry"), "the library package must not declare TrackGeometry")
    }

    /// The timeline's types, which `locationLogHasNoTimeline` keeps out of `LocationLog`.
    static let timelineTypes: Set = [
        "TimelineBuilder", "TimelineEntry", "SampleValues", "TimelineSettings", "TimelineGap", "Stay", "Trip",
        "TravelMode", "StayCluster", "OpenTrip",
    ]

    /// Issue 42: stays, trips and gaps are the server's (and the simulator's evaluation's); the phone
    /// never builds a timeline, so no file of `LocationLog` holds or declares one.
    @Test func locationLogHasNoTimeline() throws {
        let root = Self.sources.appendingPathComponent("LocationLog")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var scanned = 0
        for case let url as URL in files {
            #expect(
                !url.path.contains("/Timeline/") && !url.lastPathComponent.hasPrefix("Timeline"),
                "\(url.lastPathComponent) belongs in TrackGeometry/Timeline")
            guard url.pathExtension == "swift" else { continue }
            scanned += 1
            let code = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for line in code {
                let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                for (kind, name) in zip(words, words.dropFirst())
                where ["struct", "enum", "class", "actor"].contains(kind) && Self.timelineTypes.contains(String(name)) {
                    Issue.record("\(url.lastPathComponent) declares \(name): it belongs in TrackGeometry/Timeline")
                }
            }
        }
        #expect(scanned > 0, "the scan found no files at all: is the path right?")
        let timeline = Self.sources.appendingPathComponent("TrackGeometry/Timeline/TimelineBuilder.swift")
        #expect(FileManager.default.fileExists(atPath: timeline.path), "TimelineBuilder.swift moved: update this test")
    }
}

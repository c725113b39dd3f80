import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    @Suite("The shell's store")
    @MainActor
    struct StoreLocationTests {
        @Test("opens in its directory with protection asked for, and obeys suspension")
        func opensAndSuspends() throws {
            let directory = try TemporaryDirectory()
            let place = directory.url.appendingPathComponent("Application Support/BackgroundTracker")
            let store = try StoreLocation.open(in: place, now: Instant(seconds: 1_750_000_000))
            #expect(FileManager.default.fileExists(atPath: place.appendingPathComponent("track.sqlite").path))
            let fix = LocationFix(
                timestamp: Instant(seconds: 1_750_000_000), latitude: 31.2, longitude: 121.4, horizontalAccuracy: 5)

            LocationStore.suspendAll()
            #expect(throws: StoreError.self, "a suspended store takes no lock") {
                try store.append(fix, trigger: .timer, state: .background)
            }
            LocationStore.resumeAll()
            try store.append(fix, trigger: .timer, state: .background)
            #expect(try store.pendingCount() == 1)
        }

        /// Linux has no data protection to check on the files, so the sources are: a file the shell
        /// writes with the default class cannot be opened by a background launch while the phone
        /// is locked after its first unlock (issue 40), and nothing but this check would notice.
        @Test("every file the shell writes, and its directories, get the store's protection class")
        func everyWriteIsProtected() throws {
            #expect(StoreLocation.writing.contains(.completeFileProtectionUntilFirstUserAuthentication))
            #expect(StoreLocation.writing.contains(.atomic))
            #expect(StoreLocation.launchFlagsWriting.contains(.noFileProtection))
            let held = StoreLocation.heldProtection[.protectionKey] as? FileProtectionType
            #expect(
                held?.rawValue == FileProtectionType.completeUnlessOpen.rawValue,
                "a held store is made while the phone is locked: only this class allows it")
            let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/BackgroundTracker")
            let names = FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []
            #expect(!names.isEmpty, "no sources under \(sources.path)")
            var writes = 0
            for name in names where name.hasSuffix(".swift") && !name.hasSuffix("StoreLocation.swift") {
                let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
                for line in text.components(separatedBy: "\n") where line.contains(".write(to:") {
                    writes += 1
                    // The launch flags alone must be readable before the first unlock (issue 40).
                    let launchFlags =
                        line.contains("launchFlagsFile") && line.contains("StoreLocation.launchFlagsWriting")
                    #expect(line.contains("options: StoreLocation.writing") || launchFlags, "\(name): \(line)")
                }
                for line in text.components(separatedBy: "\n") where line.contains("createDirectory(") {
                    #expect(line.contains("StoreLocation.createDirectory("), "\(name): \(line)")
                }
            }
            #expect(writes >= 3, "the state file, an upload's body and its record")
        }
    }
}

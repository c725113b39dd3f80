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
    }
}

import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ShellSuite {
    @Suite("Background URLSession uploads")
    @MainActor
    struct UploadAdapterTests {
        @Test("a sample goes up from a file with the token, and the answer deletes exactly it")
        func uploadFromFile() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingWithOneSample()

            let upload = try #require(harness.uploader.uploads.first)
            #expect(upload.request.url?.absoluteString == "https://tracks.example/v1/batches")
            #expect(upload.request.value(forHTTPHeaderField: "Authorization") == "Bearer secret-token")
            #expect(FileManager.default.fileExists(atPath: upload.file.path))
            let ids = Array(try harness.store.pendingIDs())

            harness.uploader.finish(upload.description, status: 200, body: harness.acknowledgement(ids))

            #expect(try harness.store.pendingCount() == 0)
            #expect(!FileManager.default.fileExists(atPath: upload.file.path))
            #expect(tracker.status.lastUpload != nil)
        }

        @Test("a 401 holds uploads until the user logs in again; then they resume with the new token")
        func heldUntilCredentialsChange() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingWithOneSample()
            let first = try #require(harness.uploader.uploads.first)
            harness.uploader.finish(first.description, status: 401, body: #"{"error":"device token revoked"}"#)
            #expect(try harness.store.pendingCount() == 1)
            // Held: however much time passes, nothing more goes up with the refused token.
            harness.clock.advance(to: harness.clock.now + .seconds(4 * 3600))
            #expect(harness.uploader.uploads.count == 1)

            tracker.credentialsChanged(token: "new-token")
            let second = try #require(harness.uploader.uploads.last)
            #expect(harness.uploader.uploads.count == 2)
            #expect(second.request.value(forHTTPHeaderField: "Authorization") == "Bearer new-token")
            harness.uploader.finish(
                second.description, status: 200, body: harness.acknowledgement(Array(try harness.store.pendingIDs())))
            #expect(try harness.store.pendingCount() == 0)
        }

        @Test("an answer that arrives after a relaunch is applied, and the session's handler is called")
        func answerAppliedOnRelaunch() throws {
            let first = try ShellHarness()
            let before = try first.tracker(.adaptive)
            before.didFinishLaunching(nil)
            before.start()
            try first.storeOneSample(before)
            let upload = try #require(first.uploader.uploads.first)
            let ids = Array(try first.store.pendingIDs())

            // The app is killed with the upload in flight; iOS relaunches it for the session's events.
            let system = FakeSystem()
            system.applicationState = .background
            let second = try ShellHarness(system: system, store: first.store, directory: first.directory)
            second.uploader.running = [upload.description]
            let after = try second.tracker(.adaptive)
            after.didFinishLaunching(nil)
            var handlerCalled = false
            #expect(
                after.handleEventsForBackgroundURLSession(identifier: "com.backgroundtracker.upload") {
                    handlerCalled = true
                })
            #expect(second.uploader.uploads.isEmpty, "nothing is sent again while the answer is pending")

            second.uploader.finish(upload.description, status: 200, body: second.acknowledgement(ids))
            second.uploader.events?(.allEventsDelivered)

            #expect(try first.store.pendingCount() == 0)
            #expect(handlerCalled)
        }

        @Test("an upload the session lost (force quit) counts as failed; its samples stay and go again")
        func lostUploadIsRetried() throws {
            let first = try ShellHarness()
            let before = try first.tracker(.adaptive)
            before.didFinishLaunching(nil)
            before.start()
            try first.storeOneSample(before)
            #expect(first.uploader.uploads.count == 1)

            let second = try ShellHarness(store: first.store, directory: first.directory)
            let after = try second.tracker(.adaptive)
            after.didFinishLaunching(nil)

            #expect(try first.store.pendingCount() == 1, "the sample is kept")
            #expect(after.uploadsInFlight.isEmpty)
            #expect(second.clock.scheduled.contains(Tracker.syncTimer), "a retry is timed")
        }
    }
}

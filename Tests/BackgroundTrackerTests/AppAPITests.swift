import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

#if canImport(Observation)
    import Observation
#endif

extension ShellSuite {
    /// Issue 22 item 4: what an iOS developer reads from the tracker, in the style of Apple's own
    /// API: a stream of stored samples, one of upload results, an observable model, a bounded
    /// notice history.
    @Suite("The app-facing API")
    @MainActor
    struct AppAPITests {
        @Test("storedSamples yields each sample as it is stored, with the battery iOS reports")
        func storedSamplesStream() async throws {
            let harness = try ShellHarness()
            harness.system.batteryLevel = 0.42
            harness.system.batteryState = .charging
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            var samples = tracker.storedSamples.makeAsyncIterator()
            try harness.storeOneSample(tracker)
            let sample = try #require(await samples.next())
            #expect(sample.latitude == 31.23)
            #expect(sample.battery == Double(Float(0.42)))
            #expect(sample.charging == true)
            #expect(try harness.store.pendingIDs().contains(sample.id))
        }

        @Test("uploadResults yields each answer once it is applied")
        func uploadResultsStream() async throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            var results = tracker.uploadResults.makeAsyncIterator()
            try harness.storeOneSample(tracker)
            let upload = try #require(harness.uploader.uploads.first)
            let ids = Array(try harness.store.pendingIDs())
            harness.uploader.finish(upload.description, status: 200, body: harness.acknowledgement(ids))
            let result = try #require(await results.next())
            #expect(result.isAcknowledged)
            #expect(result.sent == ids.count)
            #expect(try harness.store.pendingCount() == 0, "the result comes after the samples left the store")
        }

        @Test("the notice history keeps the newest twenty")
        func boundedNotices() throws {
            let harness = try ShellHarness()
            let tracker = try harness.tracker(.adaptive)
            tracker.didFinishLaunching(nil)
            tracker.start()
            let notices = (0..<25).map { _ in KeepAliveMachine.Action.notify(.locationServicesOff) }
            tracker.perform(notices + [.notify(.approximateLocation)])
            #expect(tracker.status.notices.count == TrackerStatus.noticeLimit)
            #expect(tracker.status.notices.last == .approximateLocation, "the newest is kept")
        }

        #if canImport(Observation)
            @Test("the observable model changes with the tracker, and observers hear it")
            func observableModel() throws {
                let harness = try ShellHarness()
                let tracker = try harness.tracker(.adaptive)
                tracker.didFinishLaunching(nil)
                tracker.start()
                let live = tracker.observable
                #expect(live === tracker.observable, "one model per tracker")
                #expect(live.status.isTracking)
                nonisolated(unsafe) var changed = false
                withObservationTracking {
                    _ = live.recentSamples
                } onChange: {
                    changed = true
                }
                try harness.storeOneSample(tracker)
                #expect(changed, "reading recentSamples registers for its change")
                #expect(live.recentSamples.first?.latitude == 31.23)
                #expect(live.status.pending == 1)

                let upload = try #require(harness.uploader.uploads.first)
                let ids = Array(try harness.store.pendingIDs())
                harness.uploader.finish(upload.description, status: 200, body: harness.acknowledgement(ids))
                #expect(live.lastUpload?.isAcknowledged == true)
                #expect(live.status.pending == 0)
            }
        #endif
    }
}

import AppleShadow
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import Testing

@testable import BackgroundTracker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ShellSuite {
    /// Issue 26: the iOS shell sends what the Linux device sends, built by the same code.
    @Suite("The shell's upload uses the shared sync driver and request builder")
    @MainActor
    struct UploadRequestTests {
        @Test("the request is the shared builder's, and the file holds the driver's batch as gzip JSON")
        func sharedBuilder() throws {
            let harness = try ShellHarness()
            _ = try harness.trackingWithOneSample()

            let upload = try #require(harness.uploader.uploads.first)
            let expected = BatchRequest.urlRequest(
                server: try #require(URL(string: "https://tracks.example")), token: "secret-token", gzip: true)
            #expect(upload.request.url == expected.url)
            #expect(upload.request.httpMethod == expected.httpMethod)
            #expect(upload.request.allHTTPHeaderFields == expected.allHTTPHeaderFields)
            let batch = try JSONDecoder().decode(
                BatchRequest.self, from: Gzip.decompress(Data(contentsOf: upload.file)))
            let pending = try harness.store.oldestPending(limit: 10)
            #expect(batch.samples == pending.map(WireSample.init))
            #expect(batch.batch == BatchRequest.batchID(for: pending.map(\.id)).wireString)
            #expect(upload.description == batch.batch, "the file and the task are named by the batch id")
            // The zone the user is in rides with the batch (docs/protocol.md §Zones), and Core
            // Location's vertical accuracy with the sample, which makes it version 4.
            #expect(pending.first?.verticalAccuracy != nil, "the adapter keeps CLLocation.verticalAccuracy")
            #expect(batch.tz == TimeZone.current.identifier && batch.v == BatchRequest.verticalAccuracyVersion)
        }

        /// The server refuses a batch naming a device other than the token's (docs/protocol.md):
        /// an app that names no device (the example app) sends none, never a minted id, even when
        /// a state file from an earlier release holds one (every batch of those releases was
        /// refused with 403 by a server whose token named `my-phone`).
        @Test("no device configured: the batch names none, whatever an old state file says")
        func noMintedDevice() throws {
            let harness = try ShellHarness()
            let old = #"{"tracking":false,"activitySession":false,"device":"0c9d8e7f-aaaa-bbbb-cccc-000011112222"}"#
            try Data(old.utf8).write(to: harness.directory.url.appendingPathComponent("shell-state.json"))
            let tracker = try Tracker(
                configuration: .init(
                    server: try #require(URL(string: "https://tracks.example")), token: "secret-token"),
                clock: harness.clock, uploader: harness.uploader, store: harness.store,
                directory: harness.directory.url, iosMajor: 17, appInfo: AppInfo(InfoPlist.minimal(for: .adaptive)),
                seed: 7)
            tracker.didFinishLaunching(nil)
            tracker.start()
            try harness.storeOneSample(tracker)
            let upload = try #require(harness.uploader.uploads.first)
            let body = try #require(
                try JSONSerialization.jsonObject(with: Gzip.decompress(Data(contentsOf: upload.file))) as? [String: Any]
            )
            #expect(body["device"] == nil, "\(body.keys.sorted())")
            #expect((body["samples"] as? [Any])?.count == 1)
            #expect(tracker.diagnosticsReport().contains("device: the token's own"))
            // Named, it rides with every batch.
            let named = try ShellHarness()
            _ = try named.trackingWithOneSample()
            let namedUpload = try #require(named.uploader.uploads.first)
            let namedBody = try JSONDecoder().decode(
                BatchRequest.self, from: Gzip.decompress(Data(contentsOf: namedUpload.file)))
            #expect(namedBody.device == "test-phone")
        }

        /// Issue 40: a state file that cannot be decoded or read is a problem the app sees, not a
        /// silent fresh start; a damaged one is kept aside, an unreadable one is not overwritten.
        @Test("a damaged or unreadable state file is reported, kept, and never overwritten unread")
        func stateFileProblems() throws {
            let harness = try ShellHarness()
            let file = harness.directory.url.appendingPathComponent("shell-state.json")
            try Data(#"{"tracking":tru"#.utf8).write(to: file)
            let damaged = try harness.tracker(.adaptive)
            #expect(damaged.status.lastProblem?.contains("damaged") == true, "\(damaged.status.lastProblem ?? "")")
            let aside = harness.directory.url.appendingPathComponent("shell-state.damaged.json")
            #expect(try String(contentsOf: aside, encoding: .utf8) == #"{"tracking":tru"#)
            #expect(FileManager.default.fileExists(atPath: file.path), "a fresh state is saved in its place")
            #expect(damaged.diagnosticsReport().contains("damaged"))

            // Unreadable (here a folder where the file should be; on a phone, a stricter
            // protection class before the first unlock): reported, and left as it is.
            let locked = try ShellHarness()
            let lockedFile = locked.directory.url.appendingPathComponent("shell-state.json")
            try FileManager.default.createDirectory(at: lockedFile, withIntermediateDirectories: true)
            let tracker = try locked.tracker(.adaptive)
            #expect(tracker.status.lastProblem?.contains("cannot be read") == true)
            tracker.didFinishLaunching(nil)
            tracker.start()
            var isFolder: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: lockedFile.path, isDirectory: &isFolder) && isFolder.boolValue)
        }

        @Test("a refused token's typed notice reaches the user as the uploads-held notification")
        func noticeDelivered() throws {
            let harness = try ShellHarness()
            let tracker = try harness.trackingWithOneSample()
            let upload = try #require(harness.uploader.uploads.first)
            #expect(!tracker.status.notices.contains(.uploadsHeld))
            harness.uploader.finish(upload.description, status: 403, body: #"{"error":"device token revoked"}"#)
            #expect(tracker.status.notices.filter { $0 == .uploadsHeld }.count == 1)
        }
    }
}

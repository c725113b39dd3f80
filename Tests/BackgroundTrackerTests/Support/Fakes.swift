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

/// Virtual time: timers fire only when the test advances the clock.
@MainActor
final class VirtualClock: ShellClock {
    var now: Instant
    private var timers: [TimerID: (at: Instant, fire: @MainActor @Sendable () -> Void)] = [:]

    init(now: Instant) { self.now = now }

    func schedule(_ id: TimerID, at instant: Instant, _ fire: @escaping @MainActor @Sendable () -> Void) {
        timers[id] = (instant, fire)
    }

    func cancel(_ id: TimerID) { timers[id] = nil }

    /// Off the main thread, answered at once: virtual time does not pass.
    func offMain(_ work: @escaping @Sendable () -> Bool, then: @escaping @MainActor @Sendable (Bool) -> Void) {
        then(onAnotherThread(work))
    }

    var scheduled: Set<TimerID> { Set(timers.keys) }

    /// Moves time forward to `instant`, firing every timer due on the way, in order.
    func advance(to instant: Instant) {
        while let (id, timer) = timers.filter({ $0.value.at <= instant }).min(by: { $0.value.at < $1.value.at }) {
            timers[id] = nil
            now = max(now, timer.at)
            timer.fire()
        }
        now = instant
    }
}

/// Uploads that end only when the test says so.
@MainActor
final class FakeUploader: BackgroundUploader {
    var events: (@MainActor (UploadEvent) -> Void)?
    var uploads: [(request: URLRequest, file: URL, description: String)] = []
    var running: Set<String> = []

    func activate(_ events: @escaping @MainActor (UploadEvent) -> Void) { self.events = events }

    func upload(_ request: URLRequest, fromFile file: URL, description: String) {
        uploads.append((request, file, description))
        running.insert(description)
    }

    func inFlight(_ completion: @escaping @MainActor (Set<String>) -> Void) { completion(running) }

    func finish(_ description: String, status: Int, body: String) {
        running.remove(description)
        events?(
            .finished(
                description: description, status: status, body: Data(body.utf8), retryAfter: nil, error: nil,
                offline: false))
    }
}

/// A temporary directory removed when the value is.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bt-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// One shell over the fakes, as an app would set it up.
@MainActor
struct ShellHarness {
    let system: FakeSystem
    let clock: VirtualClock
    let uploader: FakeUploader
    let store: LocationStore
    let directory: TemporaryDirectory

    init(system: FakeSystem = FakeSystem(), store: LocationStore? = nil, directory: TemporaryDirectory? = nil) throws {
        self.system = system
        self.clock = VirtualClock(now: Instant(seconds: 1_750_000_000))
        self.uploader = FakeUploader()
        self.store = try store ?? LocationStore.inMemory()
        self.directory = try directory ?? TemporaryDirectory()
        ShadowSystemInstall.install(system)
    }

    /// A tracker for `strategy`, in an app whose `Info.plist` is `appInfo` (by default the
    /// minimal one the strategy needs).
    /// A tracker of `strategy` launched, tracking, and in the background (the user left the app).
    func trackingInBackground(_ strategy: StrategyName) throws -> Tracker {
        let tracker = try tracker(strategy)
        tracker.didFinishLaunching(nil)
        tracker.start()
        system.applicationState = .background
        tracker.applicationDidEnterBackground()
        return tracker
    }

    func tracker(
        _ strategy: StrategyName, ios: Int = 17, allowsSilentAudio: Bool = false, appInfo: AppInfo? = nil
    ) throws -> Tracker {
        guard let server = URL(string: "https://tracks.example") else { throw CocoaError(.fileNoSuchFile) }
        return try Tracker(
            configuration: .init(
                server: server, token: "secret-token", strategy: strategy, device: "test-phone",
                allowsSilentAudio: allowsSilentAudio),
            clock: clock, uploader: uploader, store: store, directory: directory.url, iosMajor: ios,
            appInfo: appInfo ?? AppInfo(InfoPlist.minimal(for: strategy)), seed: 7)
    }
}

extension ShellHarness {
    /// A fix at `harness.clock.now`, as Core Location reports it.
    func fix(latitude: Double = 31.23, longitude: Double = 121.47) -> CLLocation {
        CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 4,
            horizontalAccuracy: 8, verticalAccuracy: 3, course: 90, speed: 1.2,
            timestamp: Date(timeIntervalSince1970: clock.now.seconds))
    }

    /// A tracker for the adaptive strategy, launched and started, that has stored one sample (and
    /// so handed its first upload to the background session).
    func trackingWithOneSample() throws -> Tracker {
        let tracker = try self.tracker(.adaptive)
        tracker.didFinishLaunching(nil)
        tracker.start()
        try storeOneSample(tracker)
        return tracker
    }

    /// Core Location answers the tracker's one-shot request with a fix: the tracker stores it.
    func storeOneSample(_ tracker: Tracker) throws {
        system.deliver(fix(), to: try #require(tracker.location?.oneShot))
    }

    /// The server's answer that stores exactly `ids`.
    func acknowledgement(_ ids: [UUID]) -> String {
        let stored = ids.map { "\"\($0.uuidString.lowercased())\"" }.joined(separator: ",")
        return #"{"result":"ok","accepted":[\#(stored)],"duplicates":[],"rejected":[]}"#
    }
}

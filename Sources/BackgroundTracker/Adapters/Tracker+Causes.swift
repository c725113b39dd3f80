import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import CoreLocation
    import MetricKit
#else
    import ShadowCoreLocation
    import ShadowMetricKit
#endif

/// Why iOS stopped location or ended the app, as iOS says it (issue 40 item 3,
/// docs/ios-policy.md §Causes): iOS 18's location session diagnostics, heard at once, put their
/// cause on the gap open now; MetricKit's background exit counts, a day after the kill, on the
/// kill gaps of their period (sent again with the cause added). `status.lastStopCause` shows the
/// user the words.
extension Tracker {
    /// Listens to the diagnostics of the iOS 18 service session the shell just created.
    @available(iOS 18.0, *)
    func listenToDiagnostics(of session: CLServiceSession) {
        #if canImport(UIKit)
            #if canImport(AccessorySetupKit)
                // An iOS 18 SDK (AccessorySetupKit is new in it): `diagnostics` exists.
                diagnosticsTask?.cancel()
                diagnosticsTask = Self.iterate(session.diagnostics) { [weak self] in self?.heardDiagnostic($0) }
            #endif
        #else
            // The shadow: the simulator runs the app's code synchronously, so the diagnostics come
            // to an observer at once instead of the async sequence (`iterate` is the same mapping).
            session.diagnostics.shadowObserve { [weak self] in self?.heardDiagnostic(Self.causes(of: $0)) }
        #endif
    }

    // iOS 18 API: compiled with an iOS 18 SDK (AccessorySetupKit is new in it) and against the shadow.
    #if !canImport(UIKit) || canImport(AccessorySetupKit)
        /// Runs through `diagnostics` on the main actor until the task is cancelled or the session
        /// ends, handing each diagnostic's causes to `heard`.
        @available(iOS 18.0, *)
        static func iterate(
            _ diagnostics: CLServiceSession.Diagnostics, _ heard: @escaping @MainActor ([StopCause]) -> Void
        ) -> Task<Void, Never> {
            Task { @MainActor in
                do {
                    for try await diagnostic in diagnostics { heard(causes(of: diagnostic)) }
                } catch {}
            }
        }

        /// The causes a diagnostic's true properties name, in ``StopCause/diagnostics`` order.
        @available(iOS 18.0, *)
        nonisolated static func causes(of diagnostic: CLServiceSession.Diagnostic) -> [StopCause] {
            let flags: [StopCause: Bool] = [
                .authorizationDenied: diagnostic.authorizationDenied,
                .authorizationDeniedGlobally: diagnostic.authorizationDeniedGlobally,
                .authorizationRestricted: diagnostic.authorizationRestricted,
                .alwaysAuthorizationDenied: diagnostic.alwaysAuthorizationDenied,
                .fullAccuracyDenied: diagnostic.fullAccuracyDenied,
                .insufficientlyInUse: diagnostic.insufficientlyInUse,
                .serviceSessionRequired: diagnostic.serviceSessionRequired,
            ]
            return StopCause.diagnostics.filter { flags[$0] == true }
        }
    #endif

    /// A diagnostic: its causes go on the gaps they explain, and the user reads the first.
    func heardDiagnostic(_ causes: [StopCause]) {
        let now = clock.now
        try? withStore { try $0.noteDiagnostic(causes, at: now) }
        let words = causes.map(\.words)
        log(.info, "location session diagnostic: " + (words.isEmpty ? "all clear" : words.joined(separator: "; ")))
        if let first = causes.first {
            status.lastStopCause = first.statusWords
            publish()
        }
    }

    /// Subscribes to MetricKit's daily report, once per process.
    func subscribeToExitReports() {
        guard exitReports == nil else { return }
        let subscriber = ExitReportSubscriber { [weak self] in self?.heardExitReport($0) }
        exitReports = subscriber
        MXMetricManager.shared.add(subscriber)
    }

    /// A MetricKit report's background exits: the kill gaps of its period get their cause.
    func heardExitReport(_ exits: BackgroundExitCounts) {
        let now = clock.now
        let explained = (try? withStore { try $0.attributeExits(exits, at: now) }) ?? 0
        guard let words = exits.words else { return }
        log(.info, "MetricKit exit report: \(words); \(explained) kill gap(s) explained")
        status.lastStopCause = exits.statusWords
        publish()
        syncWake()
    }
}

/// MetricKit's subscriber: reads each daily report's background exit counts (on whatever thread
/// MetricKit calls, "It's safe to process the payload on a separate thread") and hands them to the
/// tracker on the main actor.
final class ExitReportSubscriber: NSObject, MXMetricManagerSubscriber, @unchecked Sendable {
    // Immutable after init.
    private let heard: @MainActor @Sendable (BackgroundExitCounts) -> Void

    init(_ heard: @escaping @MainActor @Sendable (BackgroundExitCounts) -> Void) {
        self.heard = heard
    }

    func didReceive(_ payloads: [MXMetricPayload]) {
        for payload in payloads {
            guard let exits = Self.exits(in: payload) else { continue }
            let heard = self.heard
            NoticeAdapter.onMain { heard(exits) }
        }
    }

    /// The report's background exit counts and period, `nil` when it has no exit metrics.
    static func exits(in payload: MXMetricPayload) -> BackgroundExitCounts? {
        guard let data = payload.applicationExitMetrics?.backgroundExitData else { return nil }
        let counts: [StopCause: Int] = [
            .normalAppExit: data.cumulativeNormalAppExitCount,
            .memoryResourceLimit: data.cumulativeMemoryResourceLimitExitCount,
            .cpuResourceLimit: data.cumulativeCPUResourceLimitExitCount,
            .memoryPressure: data.cumulativeMemoryPressureExitCount,
            .badAccess: data.cumulativeBadAccessExitCount,
            .abnormal: data.cumulativeAbnormalExitCount,
            .illegalInstruction: data.cumulativeIllegalInstructionExitCount,
            .appWatchdog: data.cumulativeAppWatchdogExitCount,
            .suspendedWithLockedFile: data.cumulativeSuspendedWithLockedFileExitCount,
            .backgroundTaskAssertionTimeout: data.cumulativeBackgroundTaskAssertionTimeoutExitCount,
        ]
        return BackgroundExitCounts(
            begin: Instant(seconds: payload.timeStampBegin.timeIntervalSince1970),
            end: Instant(seconds: payload.timeStampEnd.timeIntervalSince1970), counts: counts)
    }
}

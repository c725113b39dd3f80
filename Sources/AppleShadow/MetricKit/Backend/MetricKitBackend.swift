#if !canImport(UIKit)
    public import Foundation

    /// Shadow only, not Apple API: the system behind `MXMetricManager`. It keeps the subscribers
    /// and calls their `didReceive(_:)` with the daily report (docs/ios-policy.md §Causes).
    public protocol MetricKitBackend: AnyObject {
        func metricManagerAdded(_ subscriber: any MXMetricManagerSubscriber)
        func metricManagerRemoved(_ subscriber: any MXMetricManagerSubscriber)
    }

    /// Shadow only: where MetricKit finds its backend.
    public enum MetricKitShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any MetricKitBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: MetricKitBackend {
            func metricManagerAdded(_ subscriber: any MXMetricManagerSubscriber) { uninstalled() }
            func metricManagerRemoved(_ subscriber: any MXMetricManagerSubscriber) { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: MetricKit's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }

    // Shadow only: MetricKit makes its reports itself and gives apps no initializer; a backend
    // needs one to hand a report to the app as iOS would.

    extension MXMetricPayload {
        /// Shadow only: a daily report for `begin`…`end` whose background exit data has `counts`,
        /// keyed by the counter's name between `cumulative` and `ExitCount` with a lowercase first
        /// letter as `StopCause` spells them (`memoryPressure`, `normalAppExit`, …).
        public convenience init(shadowBegin begin: Date, end: Date, backgroundExits counts: [String: Int]) {
            self.init()
            storedBegin = begin
            storedEnd = end
            let exits = MXAppExitMetric()
            exits.storedBackground.counts = counts
            storedExitMetrics = exits
        }
    }
#endif

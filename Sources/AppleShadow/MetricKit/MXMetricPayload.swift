#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricpayload
    @available(iOS 13.0, *)
    open class MXMetricPayload: NSObject {
        internal var storedBegin = Date.distantPast
        internal var storedEnd = Date.distantPast
        internal var storedExitMetrics: MXAppExitMetric?

        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricpayload/timestampbegin
        open var timeStampBegin: Date { storedBegin }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricpayload/timestampend
        open var timeStampEnd: Date { storedEnd }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricpayload/applicationexitmetrics
        @available(iOS 14.0, *)
        open var applicationExitMetrics: MXAppExitMetric? { storedExitMetrics }
    }

    /// Apple: https://developer.apple.com/documentation/metrickit/mxmetric
    @available(iOS 13.0, *)
    open class MXMetric: NSObject {}

    /// Apple: https://developer.apple.com/documentation/metrickit/mxappexitmetric
    @available(iOS 14.0, *)
    open class MXAppExitMetric: MXMetric {
        internal var storedBackground = MXBackgroundExitData()

        /// Apple: https://developer.apple.com/documentation/metrickit/mxappexitmetric/backgroundexitdata
        open var backgroundExitData: MXBackgroundExitData { storedBackground }
    }

    /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata
    @available(iOS 14.0, *)
    open class MXBackgroundExitData: NSObject {
        internal var counts: [String: Int] = [:]

        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativenormalappexitcount
        open var cumulativeNormalAppExitCount: Int { counts["normalAppExit", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativememoryresourcelimitexitcount
        open var cumulativeMemoryResourceLimitExitCount: Int { counts["memoryResourceLimit", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativecpuresourcelimitexitcount
        open var cumulativeCPUResourceLimitExitCount: Int { counts["cpuResourceLimit", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativememorypressureexitcount
        open var cumulativeMemoryPressureExitCount: Int { counts["memoryPressure", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativebadaccessexitcount
        open var cumulativeBadAccessExitCount: Int { counts["badAccess", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativeabnormalexitcount
        open var cumulativeAbnormalExitCount: Int { counts["abnormal", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativeillegalinstructionexitcount
        open var cumulativeIllegalInstructionExitCount: Int { counts["illegalInstruction", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativeappwatchdogexitcount
        open var cumulativeAppWatchdogExitCount: Int { counts["appWatchdog", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativesuspendedwithlockedfileexitcount
        open var cumulativeSuspendedWithLockedFileExitCount: Int { counts["suspendedWithLockedFile", default: 0] }
        /// Apple: https://developer.apple.com/documentation/metrickit/mxbackgroundexitdata/cumulativebackgroundtaskassertiontimeoutexitcount
        open var cumulativeBackgroundTaskAssertionTimeoutExitCount: Int {
            counts["backgroundTaskAssertionTimeout", default: 0]
        }
    }
#endif

#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanager
    /// ("The system delivers metric reports at most once per day per metric source").
    @available(iOS 13.0, *)
    open class MXMetricManager: NSObject {
        nonisolated(unsafe) private static let instance = MXMetricManager()

        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanager/shared
        open class var shared: MXMetricManager { instance }

        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanager/add(_:)
        open func add(_ subscriber: any MXMetricManagerSubscriber) {
            MetricKitShadow.backend.metricManagerAdded(subscriber)
        }

        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanager/remove(_:)
        open func remove(_ subscriber: any MXMetricManagerSubscriber) {
            MetricKitShadow.backend.metricManagerRemoved(subscriber)
        }
    }

    /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanagersubscriber
    @available(iOS 13.0, *)
    public protocol MXMetricManagerSubscriber: NSObjectProtocol {
        /// Apple: https://developer.apple.com/documentation/metrickit/mxmetricmanagersubscriber/didreceive(_:)-3zq5g
        /// ("The system calls this method at most once per day").
        func didReceive(_ payloads: [MXMetricPayload])
    }
#endif

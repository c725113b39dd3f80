import BackgroundCore
import LocationLog

/// A test day counted in minutes from `start`, with a fix at home at any minute: the gap tests'
/// virtual time.
protocol MinuteDay {
    var start: Instant { get }
}

extension MinuteDay {
    func at(_ minutes: Int64) -> Instant { start + .seconds(minutes * 60) }

    func fix(_ minutes: Int64) -> LocationFix {
        LocationFix(timestamp: at(minutes), latitude: 31.2304, longitude: 121.4737, horizontalAccuracy: 10)
    }
}

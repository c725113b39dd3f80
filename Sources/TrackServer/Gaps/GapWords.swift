import BackgroundCore
import Foundation
package import LocationLog

/// How the server puts a phone's gap reason into words, on the map, in the JSON and in alerts.
package enum GapWords {
    /// What the reason means for the track, e.g. "no samples, the app was force-quit".
    package static func phrase(_ reason: GapReason) -> String {
        switch reason {
        case .suspended: "no samples, iOS suspended the app and nothing woke it"
        case .terminatedBySystem: "no samples, the app was not running"
        case .forceQuit: "no samples, the app was force-quit"
        case .locationServicesOff: "Location Services were off"
        case .authorizationLowered: "the app's location permission was lowered"
        case .preciseOff: "Precise Location was off"
        case .lowPowerMode: "Low Power Mode was on"
        case .noNetwork: "no network: uploads waited"
        case .storageFull: "no samples, the phone's storage was full"
        case .trackingStopped: "no samples, tracking was turned off"
        }
    }

    /// Whether the phone took no samples for that reason (the others slow or delay it).
    package static func stopsSampling(_ reason: GapReason) -> Bool {
        switch reason {
        case .suspended, .terminatedBySystem, .forceQuit, .locationServicesOff, .authorizationLowered,
            .storageFull, .trackingStopped:
            true
        case .preciseOff, .lowPowerMode, .noNetwork: false
        }
    }

    /// "10:30–11:00: no samples, the app was force-quit; the user reopened it", times as `HH:MM`
    /// in the device's local time (a gap over midnight names both days).
    package static func label(_ gap: GapInterval, localTime: LocalTime) -> String {
        "\(clock(gap.start, localTime, day: false))–\(clock(gap.end, localTime, day: !sameDay(gap, localTime))): "
            + sentence(gap)
    }

    /// The phrase and the phone's detail.
    package static func sentence(_ gap: GapInterval) -> String {
        phrase(gap.reason) + (gap.detail.map { $0.isEmpty ? "" : "; " + $0 } ?? "")
    }

    private static func local(_ instant: Instant, _ localTime: LocalTime) -> Int64 {
        instant.milliseconds.quotientFloor(1000) + Int64(localTime.offsetSeconds(at: instant))
    }

    private static func sameDay(_ gap: GapInterval, _ localTime: LocalTime) -> Bool {
        localTime.day(of: gap.start) == localTime.day(of: gap.end)
    }

    private static func clock(_ instant: Instant, _ localTime: LocalTime, day: Bool) -> String {
        let seconds = local(instant, localTime)
        let days = seconds.quotientFloor(86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let time = String(format: "%02d:%02d", secondOfDay / 3600, secondOfDay / 60 % 60)
        guard day else { return time }
        let (_, month, dayOfMonth) = Instant.civil(fromDays: days)
        return String(format: "%02d-%02d ", Int(month), Int(dayOfMonth)) + time
    }
}

/// One gap as the JSON endpoint and the map page give it.
package struct GapBody: Encodable, Hashable, Sendable {
    /// Epoch milliseconds, UTC.
    var start: Int64
    var end: Int64
    var reason: String
    var detail: String?
    /// Whether the phone took no samples then (else it sampled less, or could not upload).
    var no_samples: Bool
    /// The words the map shows, times in the device's local time (``LocalTime``).
    var label: String

    package init(_ gap: GapInterval, localTime: LocalTime) {
        start = gap.start.milliseconds
        end = gap.end.milliseconds
        reason = gap.reason.rawValue
        detail = gap.detail
        no_samples = GapWords.stopsSampling(gap.reason)
        label = GapWords.label(gap, localTime: localTime)
    }
}

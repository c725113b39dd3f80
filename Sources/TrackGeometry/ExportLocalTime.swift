public import BackgroundCore
public import Foundation
import LocationLog

/// The local time an export writes beside each UTC time: the offset from UTC and the IANA zone in
/// effect at an instant, so a reader sees the clock the person saw without working it out.
///
/// CSV gets `local_time` and `time_zone` columns, GeoJSON `local_time` and `time_zone` properties;
/// GPX keeps UTC in `<time>` (GPX 1.1 asks for it) and carries the local time in a `trkpt`
/// extension. The server reads it from the zones the device was in (`LocalTime`); a phone from
/// `TimeZone.current`.
///
/// ```swift
/// let csv = TrackExport.csv(segments, localTime: ExportLocalTime(zone: .current))
/// ```
public struct ExportLocalTime: Sendable {
    /// An instant's offset from UTC in seconds and its zone's IANA name.
    public typealias Stamp = (offsetSeconds: Int, zone: String)

    /// The offset and zone at an instant.
    public let stamp: @Sendable (Instant) -> Stamp

    /// Local times from `stamp`, asked once per written time.
    public init(_ stamp: @escaping @Sendable (Instant) -> Stamp) {
        self.stamp = stamp
    }

    /// Local times in one zone, with its daylight saving.
    public init(zone: TimeZone) {
        self.init { instant in
            (
                zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000)),
                zone.identifier
            )
        }
    }

    /// UTC with a zero offset: what an export says when nothing knows the device's zone.
    public static let utc = ExportLocalTime { _ in (0, "UTC") }

    /// `2024-11-25T08:00:00.000+01:00` and `Europe/Berlin`.
    public func local(_ instant: Instant) -> (time: String, zone: String) {
        let (offset, zone) = stamp(instant)
        return (instant.iso8601(offsetSeconds: offset), zone)
    }
}

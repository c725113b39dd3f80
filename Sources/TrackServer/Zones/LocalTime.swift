public import BackgroundCore
public import Foundation
import LocationLog
public import TrackGeometry

/// A device's local time: the IANA zone each of its samples was taken in, with daylight saving.
///
/// The zone of an instant is the operator's override when set, else the zone the device reported
/// for it (``DeviceTimeZones``), else the server's `--time-zone`. A local day is the set of
/// instants whose local date, in the zone of each instant, is that date: a day with a DST change
/// has 23 or 25 hours, and every sample falls on exactly one day, also when the device moved
/// between zones (a day may then be shorter or longer by the zones' difference).
public struct LocalTime: Sendable {
    /// A stretch of time with one zone and one offset from UTC.
    public struct Span: Hashable, Sendable {
        public var start: Instant
        public var offsetSeconds: Int
        public var zone: String
    }

    private let override: TimeZone?
    private let reported: [(since: Instant, zone: TimeZone)]
    private let fallback: TimeZone

    static let dayMilliseconds: Int64 = 86_400_000

    /// - Parameters:
    ///   - zones: what the store holds for the device; a stored name this system's tz database no
    ///     longer knows keeps the zone in effect before it.
    ///   - serverDefault: the server's `--time-zone`.
    public init(_ zones: DeviceTimeZones = DeviceTimeZones(), serverDefault: TimeZone) {
        override = zones.override.flatMap { try? TimeZoneName.zone($0) }
        reported = zones.reported.compactMap { change in
            (try? TimeZoneName.zone(change.zone)).map { (change.since, $0) }
        }
        fallback = serverDefault
    }

    /// One zone for every instant (the demo's phone, a device without reports).
    public init(zone: TimeZone) {
        self.init(serverDefault: zone)
    }

    /// The zone in effect at `instant`.
    public func zone(at instant: Instant) -> TimeZone {
        if let override { return override }
        return reported.last { $0.since <= instant }?.zone ?? fallback
    }

    /// The zone's offset from UTC at `instant`, in seconds.
    public func offsetSeconds(at instant: Instant) -> Int {
        zone(at: instant).secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }

    /// The local date of `instant` as a day number since 1970-01-01.
    public func day(of instant: Instant) -> Int {
        Int((instant.milliseconds + Int64(offsetSeconds(at: instant)) * 1000).quotientFloor(Self.dayMilliseconds))
    }

    /// The instants of local day `day` (days since 1970-01-01), from the first to just after the
    /// last: 24 hours, 23 or 25 on a DST change, more or less when the zone changed that day.
    public func range(ofDay day: Int) -> Range<Instant> {
        let dayStart = Int64(day) * Self.dayMilliseconds
        let dayEnd = dayStart + Self.dayMilliseconds
        // Any instant of the day lies within 30 hours of its UTC bounds (offsets are within ±26 h).
        let window = 30 * 3_600_000 as Int64
        var low: Int64?
        var high: Int64?
        for span in spans(from: Instant(milliseconds: dayStart - window), to: Instant(milliseconds: dayEnd + window))
            .withEnds(Instant(milliseconds: dayEnd + window))
        {
            let offset = Int64(span.span.offsetSeconds) * 1000
            let start = max(span.span.start.milliseconds, dayStart - offset)
            let end = min(span.end.milliseconds, dayEnd - offset)
            guard start < end else { continue }
            low = min(low ?? start, start)
            high = max(high ?? end, end)
        }
        guard let low, let high else {
            // A date the zone skipped (Samoa's 2011-12-30): an empty range where it would have been.
            let at = dayStart - Int64(offsetSeconds(at: Instant(milliseconds: dayStart))) * 1000
            return Instant(milliseconds: at)..<Instant(milliseconds: at)
        }
        return Instant(milliseconds: low)..<Instant(milliseconds: high)
    }

    /// The local year `year`'s instants, as ``range(ofDay:)`` from its first day to its last.
    public func range(ofYear year: Int) -> Range<Instant> {
        let first = Int(Instant.days(fromCivil: Int64(year), 1, 1))
        let last = Int(Instant.days(fromCivil: Int64(year + 1), 1, 1)) - 1
        return range(ofDay: first).lowerBound..<range(ofDay: last).upperBound
    }

    /// `from..<to` cut where the zone or its offset changes, in order; the first span starts at `from`.
    public func spans(from: Instant, to: Instant) -> [Span] {
        var pieces: [(start: Instant, zone: TimeZone)] = []
        if let override {
            pieces = [(from, override)]
        } else {
            pieces = [(from, zone(at: from))]
            for change in reported where change.since > from && change.since < to {
                pieces.append((change.since, change.zone))
            }
        }
        var spans: [Span] = []
        for (index, piece) in pieces.enumerated() {
            let end = index + 1 < pieces.count ? pieces[index + 1].start : to
            var start = piece.start
            while start < end {
                let date = Date(timeIntervalSince1970: Double(start.milliseconds) / 1000)
                let offset = piece.zone.secondsFromGMT(for: date)
                if spans.last?.offsetSeconds != offset || spans.last?.zone != piece.zone.identifier {
                    spans.append(Span(start: start, offsetSeconds: offset, zone: piece.zone.identifier))
                }
                guard let next = piece.zone.nextDaylightSavingTimeTransition(after: date) else { break }
                let following = Instant(milliseconds: Int64((next.timeIntervalSince1970 * 1000).rounded()))
                guard following > start else { break }
                start = following
            }
        }
        return spans
    }

    /// Local times for an export, each instant asking its zone (an export of all time, as the
    /// erasure's); ``exportLocalTime(from:to:)`` is quicker for a range.
    public var exportLocalTime: ExportLocalTime {
        ExportLocalTime { [self] instant in (offsetSeconds(at: instant), zone(at: instant).identifier) }
    }

    /// Local times for an export of `from..<to`: the range's spans worked out once, each written
    /// time looked up among them (an instant outside the range asks its zone directly).
    public func exportLocalTime(from: Instant, to: Instant) -> ExportLocalTime {
        let spans = spans(from: from, to: max(to, from + .milliseconds(1)))
        let direct = exportLocalTime
        return ExportLocalTime { instant in
            guard instant >= from, instant < to, let first = spans.first, first.start <= instant else {
                return direct.stamp(instant)
            }
            // The last span starting at or before `instant`.
            var low = 0
            var high = spans.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if spans[middle].start <= instant { low = middle } else { high = middle - 1 }
            }
            return (spans[low].offsetSeconds, spans[low].zone)
        }
    }

    /// `[start ms, offset minutes]` per span of `from..<to`: what the pages' scripts read local
    /// times from (`Pages/Assets/local-time.js`).
    public func offsetTable(from: Instant, to: Instant) -> [[Int64]] {
        spans(from: from, to: max(to, from + .milliseconds(1))).map {
            [$0.start.milliseconds, Int64($0.offsetSeconds / 60)]
        }
    }

    /// `2024-11-25 08:00:00 +01:00`: the local time of `instant` with its offset.
    public func text(_ instant: Instant, seconds: Bool = true) -> String {
        let offset = offsetSeconds(at: instant)
        let local = instant.milliseconds.quotientFloor(1000) + Int64(offset)
        let days = local.quotientFloor(86_400)
        let second = Int(local - days * 86_400)
        let (year, month, day) = Instant.civil(fromDays: days)
        let clock =
            seconds
            ? String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
            : String(format: "%02d:%02d", second / 3600, second / 60 % 60)
        return String(format: "%04d-%02d-%02d ", Int(year), Int(month), Int(day)) + clock + " "
            + Self.offsetText(offset)
    }

    /// `2024-11-25 08:00:00 +01:00 Europe/Berlin`: ``text(_:seconds:)`` with the zone's name.
    public func named(_ instant: Instant) -> String {
        text(instant) + " " + zone(at: instant).identifier
    }

    /// `2024-11-22` of a day number since 1970-01-01.
    public static func isoDay(_ day: Int) -> String {
        let (year, month, dayOfMonth) = Instant.civil(fromDays: Int64(day))
        return String(format: "%04d-%02d-%02d", Int(year), Int(month), Int(dayOfMonth))
    }

    /// `+01:00`, `-04:00`, `+05:45`.
    public static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    /// The zone names of `from..<to`, in order without repeats: `Europe/Berlin`, or
    /// `Europe/Berlin, America/New_York` for a day the device changed zone.
    public func zoneNames(from: Instant, to: Instant) -> String {
        var names: [String] = []
        for span in spans(from: from, to: max(to, from + .milliseconds(1))) where names.last != span.zone {
            names.append(span.zone)
        }
        return names.joined(separator: ", ")
    }
}

extension [LocalTime.Span] {
    /// Each span with the start of the next (or `end` for the last).
    func withEnds(_ end: Instant) -> [(span: LocalTime.Span, end: Instant)] {
        enumerated().map { index, span in (span, index + 1 < count ? self[index + 1].start : end) }
    }
}

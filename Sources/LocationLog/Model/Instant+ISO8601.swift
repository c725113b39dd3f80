public import BackgroundCore

extension Instant {
    /// `2024-11-22T01:46:40.123Z`: UTC, millisecond precision, as GPX and GeoJSON exports write it.
    ///
    /// Computed with integer civil-calendar arithmetic (Howard Hinnant's `civil_from_days`) rather
    /// than a date formatter: exact, allocation-light, and the same on every platform.
    public var iso8601: String {
        Self.text(milliseconds, offsetSeconds: nil)
    }

    /// `2024-11-22T02:46:40.123+01:00`: the local time `offsetSeconds` from UTC, with its offset
    /// (`+00:00` for UTC itself), as an export writes a local time beside the UTC one.
    public func iso8601(offsetSeconds: Int) -> String {
        Self.text(milliseconds + Int64(offsetSeconds) * 1000, offsetSeconds: offsetSeconds)
    }

    /// `2024-11-22T01:46:40.123` of milliseconds since 1970 on a clock with no zone, then `Z`
    /// (no offset) or the offset `±HH:MM`. Written digit by digit into the string's own buffer: an
    /// export writes two of these for each point, and building them from interpolated pieces was
    /// a third of a GeoJSON export's time.
    private static func text(_ milliseconds: Int64, offsetSeconds: Int?) -> String {
        let millisecondsPerDay: Int64 = 86_400_000
        var days = milliseconds / millisecondsPerDay
        var rest = milliseconds % millisecondsPerDay
        if rest < 0 {
            rest += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        // The offset's minutes, its sign apart (-30 s is written -00:00).
        let offset = offsetSeconds.map { Int64(abs($0) / 60) }
        // 20 characters, the year (its sign and up to 19 digits) and the offset (a sign, up to 19
        // digits of hours and ":MM").
        return String(unsafeUninitializedCapacity: 64) { buffer in
            var end = 0
            func byte(_ character: Unicode.Scalar) {
                buffer[end] = UInt8(ascii: character)
                end += 1
            }
            // `value` in at least `width` digits, after its sign: a year of five digits or before
            // year 0, or an offset of 100 hours, is never a real fix's but is written in full.
            func digits(_ value: Int64, _ width: Int) {
                if value < 0 { byte("-") }
                var remaining = value.magnitude
                var count = 1
                while remaining >= 10 {
                    remaining /= 10
                    count += 1
                }
                let places = max(width, count)
                remaining = value.magnitude
                for place in stride(from: end + places - 1, through: end, by: -1) {
                    buffer[place] = UInt8(truncatingIfNeeded: 48 + remaining % 10)
                    remaining /= 10
                }
                end += places
            }
            digits(year, 4)
            byte("-")
            digits(month, 2)
            byte("-")
            digits(day, 2)
            byte("T")
            digits(rest / 3_600_000, 2)
            byte(":")
            digits(rest / 60_000 % 60, 2)
            byte(":")
            digits(rest / 1000 % 60, 2)
            byte(".")
            digits(rest % 1000, 3)
            if let offset, let offsetSeconds {
                byte(offsetSeconds < 0 ? "-" : "+")
                digits(offset / 60, 2)
                byte(":")
                digits(offset % 60, 2)
            } else {
                byte("Z")
            }
            return end
        }
    }

    /// Reads `YYYY-MM-DD[T ]HH:MM:SS[.fff…][Z|±HH:MM|±HHMM]` (no zone means UTC; `t`, `z` and a
    /// decimal comma are accepted too); `nil` for anything else. The one ISO-8601 reader of the
    /// package: route files, exports and every ingest protocol use it.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 32 || bytes[10] == 116,
            bytes[13] == 58, bytes[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if index < bytes.count, bytes[index] == 46 || bytes[index] == 44 {
            index += 1
            var scale: Int64 = 100
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetMinutes: Int64 = 0
        let colon = index + 3 < bytes.count && bytes[index + 3] == 58 ? 1 : 0
        if index == bytes.count {
            // No zone: GPX requires UTC, and the clients that omit it mean UTC.
        } else if bytes[index] == 90 || bytes[index] == 122, index + 1 == bytes.count {
        } else if bytes[index] == 43 || bytes[index] == 45, index + 5 + colon == bytes.count,
            let offsetHours = number((index + 1)..<(index + 3)),
            let offsetMins = number((index + 3 + colon)..<(index + 5 + colon)), offsetHours < 24, offsetMins < 60
        {
            offsetMinutes = (offsetHours * 60 + offsetMins) * (bytes[index] == 45 ? -1 : 1)
        } else {
            return nil
        }
        let days = Self.days(fromCivil: year, month, day)
        let ms = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + fraction
        self.init(milliseconds: ms)
    }

    /// The proleptic Gregorian (year, month, day) of a day number since 1970-01-01.
    public static func civil(fromDays daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

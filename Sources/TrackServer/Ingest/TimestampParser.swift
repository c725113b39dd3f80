import BackgroundCore
import Foundation

/// Parses the timestamp forms the clients send: ISO-8601 (`2024-11-22T03:04:05Z`,
/// `…05.123+08:00`), `yyyy-MM-dd HH:mm:ss` (UTC), and Unix seconds or milliseconds.
enum TimestampParser {
    /// Numbers above this are milliseconds (1e11 s is the year 5138; 1e11 ms is 1973).
    static let millisecondThreshold = 1e11

    static func instant(fromNumber value: Double) -> Instant? {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        return abs(value) >= millisecondThreshold
            ? Instant(milliseconds: Int64(value.rounded())) : Instant(seconds: value)
    }

    static func instant(from text: String) -> Instant? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Double(trimmed), trimmed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
            return instant(fromNumber: number)
        }
        return iso8601(trimmed)
    }

    /// `YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|±HH:MM|±HHMM]`; no zone means UTC.
    static func iso8601(_ text: String) -> Instant? {
        let chars = Array(text.utf8)
        guard chars.count >= 19 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = digits(0, 4), chars[4] == 45, let month = digits(5, 2), chars[7] == 45,
            let day = digits(8, 2), chars[10] == 84 || chars[10] == 32 || chars[10] == 116,
            let hour = digits(11, 2), chars[13] == 58, let minute = digits(14, 2), chars[16] == 58,
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var millis = 0
        if index < chars.count, chars[index] == 46 || chars[index] == 44 {
            index += 1
            var scale = 100
            let start = index
            while index < chars.count, (48...57).contains(chars[index]) {
                millis += Int(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        if index < chars.count {
            switch chars[index] {
            case 90, 122:
                index += 1
            case 43, 45:
                let sign = chars[index] == 45 ? -1 : 1
                guard let hours = digits(index + 1, 2) else { return nil }
                var next = index + 3
                if next < chars.count, chars[next] == 58 { next += 1 }
                guard let minutes = digits(next, 2), hours < 24, minutes < 60 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
                index = next + 2
            default:
                return nil
            }
        }
        guard index == chars.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Instant(milliseconds: Int64(seconds) * 1000 + Int64(millis))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

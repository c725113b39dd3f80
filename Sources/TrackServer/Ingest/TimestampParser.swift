import BackgroundCore
import Foundation
import LocationLog

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
        Instant(iso8601: text)
    }
}

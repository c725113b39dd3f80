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
        // Foundation's trimming and `Character`'s Unicode properties cost an OsmAnd request about
        // a tenth of its event loop's time (perf, issue 23 item 5): trim only when there is
        // something to trim, and test the bytes. `Double` reads ASCII only, so the ASCII test
        // takes exactly the numbers the `Character` test took.
        let padded = text.first?.isWhitespace == true || text.last?.isWhitespace == true
        let trimmed = padded ? text.trimmingCharacters(in: .whitespaces) : text
        if trimmed.utf8.allSatisfy(isNumberByte), let number = Double(trimmed) {
            return instant(fromNumber: number)
        }
        return iso8601(trimmed)
    }

    /// A digit, `.` or `-`: a plain number's bytes (no exponent, no `inf`).
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// `YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|±HH:MM|±HHMM]`; no zone means UTC.
    static func iso8601(_ text: String) -> Instant? {
        Instant(iso8601: text)
    }
}

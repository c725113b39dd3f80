import BackgroundCore
import Foundation
import LocationLog

/// Small helpers for the server-rendered pages.
enum HTML {
    static func escape(_ text: String) -> String {
        TrackExport.xmlEscaped(text)
    }

    /// JSON safe to place inside a `<script>` element.
    static func scriptJSON(_ value: some Encodable) throws -> String {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        return text.replacingOccurrences(of: "</", with: "<\\/").replacingOccurrences(of: "<!--", with: "<\\!--")
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? ""
    }

    /// `2024-11-22 03:04:05 UTC`, or local time with the zone: `2024-11-22 11:04:05 UTC+08:00`.
    static func utc(_ milliseconds: Int64, offsetMinutes: Int = 0) -> String {
        let seconds = milliseconds / 1000 + Int64(offsetMinutes) * 60
        let days = Int(seconds.quotientFloor(86_400))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = Instant.civil(fromDays: Int64(days))
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d ", Int(year), Int(month), Int(day), secondOfDay / 3600,
            secondOfDay / 60 % 60, secondOfDay % 60) + zone(offsetMinutes)
    }

    /// `UTC`, `UTC+08:00`, `UTC-05:30`.
    static func zone(_ offsetMinutes: Int) -> String {
        guard offsetMinutes != 0 else { return "UTC" }
        let size = abs(offsetMinutes)
        return String(format: "UTC%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", size / 60, size % 60)
    }

    /// `2024-11-22` of a day number since the epoch.
    static func isoDay(_ days: Int) -> String {
        let (year, month, day) = Instant.civil(fromDays: Int64(days))
        return String(format: "%04d-%02d-%02d", Int(year), Int(month), Int(day))
    }
}

extension Int64 {
    func quotientFloor(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

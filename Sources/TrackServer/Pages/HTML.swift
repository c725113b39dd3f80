import BackgroundCore
import Foundation
import LocationLog
import TrackGeometry

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

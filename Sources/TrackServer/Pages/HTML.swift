import Foundation

/// Small helpers for the server-rendered pages.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
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

    /// `2024-11-22 03:04:05 UTC`.
    static func utc(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let days = Int(seconds.quotientFloor(86_400))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civil(fromDays: days)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d UTC", year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60)
    }

    /// `2024-11-22` of a day number since the epoch.
    static func isoDay(_ days: Int) -> String {
        let (year, month, day) = civil(fromDays: days)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Howard Hinnant's civil-from-days.
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    func quotientFloor(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

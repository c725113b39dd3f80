/// Client-supplied text made safe for a log line: control characters (newlines included, which
/// would forge a line) escaped, and the length bounded so a request cannot grow the log by more
/// than a few hundred bytes per field.
enum LogText {
    static let limit = 200

    static func bounded(_ text: some StringProtocol, limit: Int = LogText.limit) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                out += "…(\(text.utf8.count) bytes)"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out
    }
}

import Foundation

extension XcodeGenSpec {
    /// The plist value XcodeGen writes for a YAML value. XcodeGen reads YAML with Yams, whose
    /// resolver types plain scalars as YAML 1.1 does (`yes`, `on`, `true` are booleans; decimals
    /// are numbers); quoted scalars stay strings. Forms whose typing is subtle (hex, octal,
    /// timestamps, nulls) and `${VAR}`, which XcodeGen replaces from the environment, are refused
    /// rather than guessed.
    static func plistValue(_ node: SpecNode, at key: String) throws(InfoPlistError) -> Any {
        switch node {
        case .scalar(let text, true, _):
            try refuseVariables(text, key, node.line)
            return text
        case .scalar(let text, false, let line):
            return try plain(text, key, line)
        case .sequence(let items, _):
            var values: [Any] = []
            for (offset, item) in items.enumerated() { values.append(try plistValue(item, at: "\(key)[\(offset)]")) }
            return values
        case .mapping(let entries, _):
            var values: [String: Any] = [:]
            for (name, value) in entries { values[name] = try plistValue(value, at: "\(key).\(name)") }
            return values
        case .empty(let line):
            throw InfoPlistError(
                key: key, message: "line \(line): has no value; give one (an empty string is \"\") or remove the key")
        }
    }

    private static func plain(_ text: String, _ key: String, _ line: Int) throws(InfoPlistError) -> Any {
        let booleans: [String: Bool] = [
            "yes": true, "true": true, "on": true, "no": false, "false": false, "off": false,
        ]
        if let value = booleans[text.lowercased()],
            text == text.lowercased() || text == text.uppercased()
                || text == text.prefix(1).uppercased() + text.dropFirst()
        {
            return value
        }
        if text.wholeMatch(of: /[-+]?(0|[1-9][0-9]*)/) != nil, let value = Int(text) { return value }
        if text.wholeMatch(of: /[-+]?[0-9]+\.[0-9]*([eE][-+]?[0-9]+)?/) != nil, let value = Double(text) {
            return value
        }
        let subtle =
            ["~", "null", "Null", "NULL", "="].contains(text) || text.hasPrefix("<<")
            || text.wholeMatch(of: /[-+]?(0[xob]?[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?|\.[0-9].*)/)
                != nil
            || text.wholeMatch(of: /[-+]?[0-9][0-9_]*_[0-9_]*/) != nil
            || text.wholeMatch(of: /[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)/) != nil
            || text.wholeMatch(of: /[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?/) != nil
        if subtle {
            throw InfoPlistError(
                key: key,
                message: "line \(line): `\(text.prefix(40))` is typed by YAML as a null, number or date; put it in "
                    + "double quotes for a string")
        }
        try refuseVariables(text, key, line)
        return text
    }

    private static func refuseVariables(_ text: String, _ key: String, _ line: Int) throws(InfoPlistError) {
        guard text.contains("${") else { return }
        throw InfoPlistError(
            key: key,
            message: "line \(line): `${…}` is replaced by XcodeGen from the environment; lint the generated Info.plist "
                + "instead, or use a build setting `$(…)`")
    }
}

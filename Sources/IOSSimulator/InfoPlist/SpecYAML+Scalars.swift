extension SpecYAML {
    /// Splits `key: rest` (the key plain or quoted), or returns `nil` when the text is not a
    /// mapping entry (a scalar, a flow list).
    ///
    /// - Throws: when the text starts with YAML syntax this reader refuses (anchors, tags, `?` keys).
    static func splitKey(_ text: Substring, _ line: Int) throws(InfoPlistError) -> (String, Substring)? {
        guard let first = text.first else { return nil }
        try refuseIndicator(first, line)
        if first == "?" && (text.count == 1 || text.dropFirst().first == " ") {
            throw fail(line, "complex keys (`? `) are not read; write `key: value`")
        }
        if first == "[" || first == "{" { return nil }
        if first == "\"" || first == "'" {
            let (key, after) = try quoted(text, line)
            let rest = after.drop { $0 == " " }
            guard rest.first == ":", rest.count == 1 || rest.dropFirst().first == " " else { return nil }
            return (key, rest.dropFirst())
        }
        var position = text.startIndex
        while let colon = text[position...].firstIndex(of: ":") {
            let after = text.index(after: colon)
            if after == text.endIndex || text[after] == " " {
                var key = text[..<colon]
                while key.last == " " { key.removeLast() }
                guard !key.isEmpty, !key.contains(" #") else { return nil }
                return (String(key), text[after...])
            }
            position = after
        }
        return nil
    }

    /// A value written after `key:` or `- ` on the same line.
    static func scalarOrFlow(_ raw: Substring, _ line: Int) throws(InfoPlistError) -> SpecNode {
        let text = raw.drop { $0 == " " }
        guard let first = text.first else { return .empty(line: line) }
        try refuseIndicator(first, line)
        switch first {
        case "\"", "'":
            let (value, after) = try quoted(text, line)
            try expectEnd(after, line, "after the closing quote")
            return .scalar(value, quoted: true, line: line)
        case "[":
            return try flowList(text, line)
        case "{":
            guard text.dropFirst().drop(while: { $0 == " " }).hasPrefix("}") else {
                throw fail(line, "flow mappings ({ key: value }) are not read; write each key on its own line")
            }
            try expectEnd(text.drop { $0 != "}" }.dropFirst(), line, "after `{}`")
            return .mapping([], line: line)
        default:
            return .scalar(try plain(text, line), quoted: false, line: line)
        }
    }

    /// A plain scalar: up to a ` #` comment, without `: ` (YAML would read a mapping there).
    private static func plain(_ text: Substring, _ line: Int) throws(InfoPlistError) -> String {
        var value = text
        if let hash = value.firstRange(of: " #") { value = value[..<hash.lowerBound] }
        while value.last == " " || value.last == "\t" { value.removeLast() }
        if value.contains(": ") || value.hasSuffix(":") {
            throw fail(line, "the value `\(value.prefix(60))` contains `: `; put it in double quotes")
        }
        return String(value)
    }

    /// `[a, "b", c]` on one line, scalars only.
    private static func flowList(_ text: Substring, _ line: Int) throws(InfoPlistError) -> SpecNode {
        var rest = text.dropFirst()
        var items: [SpecNode] = []
        while true {
            rest = rest.drop { $0 == " " }
            guard let first = rest.first else { throw unclosed(line) }
            if first == "]", items.isEmpty { break }
            if first == "[" || first == "{" {
                throw fail(line, "nested flow collections are not read; write the list with `- item` lines")
            }
            try refuseIndicator(first, line)
            let value: SpecNode
            if first == "\"" || first == "'" {
                let (text, after) = try quoted(rest, line)
                value = .scalar(text, quoted: true, line: line)
                rest = after.drop { $0 == " " }
            } else {
                let end =
                    rest.firstIndex { $0 == "," || $0 == "]" || $0 == "[" || $0 == "{" || $0 == "}" } ?? rest.endIndex
                var item = rest[..<end]
                while item.last == " " { item.removeLast() }
                guard !item.isEmpty, !item.contains("#"), !item.contains(": ") else {
                    throw fail(line, "cannot read the item `\(item.prefix(60))` of the `[` list; quote it")
                }
                value = .scalar(String(item), quoted: false, line: line)
                rest = rest[end...]
            }
            items.append(value)
            if rest.first == "," {
                rest = rest.dropFirst()
            } else if rest.first == "]" {
                break
            } else if rest.isEmpty {
                throw unclosed(line)
            } else {
                throw fail(line, "expected `,` or `]` in the `[` list; quote items that contain them")
            }
        }
        try expectEnd(rest.dropFirst(), line, "after `]`")
        return .sequence(items, line: line)
    }

    private static func unclosed(_ line: Int) -> InfoPlistError {
        fail(line, "a `[` list does not end on its line; close it with `]` or write one `- item` a line")
    }

    /// A single- or double-quoted scalar that ends on its line; returns it and the text after it.
    static func quoted(_ text: Substring, _ line: Int) throws(InfoPlistError) -> (String, Substring) {
        let quote = text.first
        var value = ""
        var rest = text.dropFirst()
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == quote {
                guard quote == "'", rest.first == "'" else { return (value, rest) }
                value.append("'")
                rest = rest.dropFirst()
            } else if character == "\\", quote == "\"" {
                guard let escape = rest.first else { break }
                rest = rest.dropFirst()
                switch escape {
                case "\"", "\\", "/": value.append(escape)
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "u":
                    let hex = rest.prefix(4)
                    guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw fail(line, "`\\u` needs four hex digits of a character")
                    }
                    value.unicodeScalars.append(scalar)
                    rest = rest.dropFirst(4)
                default:
                    throw fail(line, "the escape `\\\(escape)` is not read; use \\\\ \\\" \\n \\t \\r or \\uXXXX")
                }
            } else {
                value.append(character)
            }
        }
        throw fail(line, "a quoted value does not end on its line; close the quote (multi-line values are not read)")
    }

    private static func expectEnd(_ rest: Substring, _ line: Int, _ place: String) throws(InfoPlistError) {
        guard isBlank(rest) else {
            throw fail(line, "unexpected `\(rest.prefix(40))` \(place); only a ` # comment` may follow")
        }
    }

    /// YAML syntax with no place in a project spec, refused where a key or value starts.
    private static func refuseIndicator(_ character: Character, _ line: Int) throws(InfoPlistError) {
        switch character {
        case "&", "*": throw fail(line, "YAML anchors and aliases (& and *) are not read; write the value out")
        case "!": throw fail(line, "YAML tags (!) are not read; remove the tag")
        case "|", ">": throw fail(line, "block scalars (| and >) are not read; write the text on one line in quotes")
        case "@", "`", "%": throw fail(line, "`\(character)` cannot start a plain value; put the value in quotes")
        case "\t": throw fail(line, "a tab before the value; use spaces")
        default: break
        }
    }
}

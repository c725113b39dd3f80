import Foundation

/// A value of the YAML subset ``SpecYAML`` reads: what XcodeGen project specs are written in.
indirect enum SpecNode: Sendable {
    case scalar(String, quoted: Bool, line: Int)
    case sequence([SpecNode], line: Int)
    case mapping([(key: String, value: SpecNode)], line: Int)
    /// `key:` with nothing under it (YAML's null).
    case empty(line: Int)

    var line: Int {
        switch self {
        case .scalar(_, _, let line), .sequence(_, let line), .mapping(_, let line), .empty(let line): line
        }
    }

    subscript(key: String) -> SpecNode? {
        guard case .mapping(let entries, _) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// A strict reader for the block-style YAML that XcodeGen specs use: mappings, lists, plain and
/// quoted one-line scalars, one-line flow lists of scalars, comments. Whatever else YAML allows
/// (anchors and aliases, tags, block and multi-line scalars, flow mappings, merge keys, several
/// documents) is refused with the line and what to write instead, never guessed at: `lint-plist`
/// must lint what XcodeGen would write or say it cannot.
///
/// Bounded on hostile input: at most ``maximumBytes`` and ``maximumDepth`` levels; without
/// aliases, the tree is never larger than the text.
struct SpecYAML {
    /// A project.yml is a few kilobytes; larger files are refused before parsing.
    static let maximumBytes = 1 << 20
    static let maximumDepth = 32

    struct Line {
        var number: Int
        var indent: Int
        var text: Substring
    }

    private var lines: [Line]
    private var index = 0

    /// Parses a whole document; its top level must be a mapping.
    ///
    /// - Throws: ``InfoPlistError`` naming the line, what is not read and what to write instead.
    static func parse(_ data: Data) throws(InfoPlistError) -> SpecNode {
        guard data.count <= maximumBytes else {
            throw fail(0, "the file is \(data.count) bytes; a project.yml is a few kilobytes, check the path")
        }
        guard var text = String(data: data, encoding: .utf8), !text.contains("\0") else {
            throw fail(0, "not UTF-8 text; a project.yml is a UTF-8 YAML file")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var reader = SpecYAML(lines: try logicalLines(text))
        guard let first = reader.lines.first else {
            throw fail(0, "the file has no content; a project.yml has at least `name:` and `targets:`")
        }
        let root = try reader.block(depth: 0)
        if reader.index < reader.lines.count {
            throw fail(reader.lines[reader.index].number, "is indented less than the first key; align it with column 1")
        }
        guard case .mapping = root, first.indent == 0 else {
            throw fail(
                first.number, "the top level is not a mapping of keys (`name:`, `targets:`); is this a project.yml?")
        }
        return root
    }

    static func fail(_ line: Int, _ message: String) -> InfoPlistError {
        InfoPlistError(key: "(file)", message: line > 0 ? "line \(line): \(message)" : message)
    }

    /// The lines with content: comments, blank lines and one leading `---` dropped.
    private static func logicalLines(_ text: String) throws(InfoPlistError) -> [Line] {
        var result: [Line] = []
        // "\r\n" is one Character in Swift: split on it too.
        let rawLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (offset, raw) in rawLines.enumerated() {
            let number = offset + 1
            var line = raw
            if line.last == "\r" { line.removeLast() }
            let leading = line.prefix { $0 == " " || $0 == "\t" }
            if leading.contains("\t") {
                throw fail(number, "a tab in the indentation; YAML indents with spaces only")
            }
            var body = line.dropFirst(leading.count)
            while let last = body.last, last == " " || last == "\t" { body.removeLast() }
            if body.isEmpty || body.hasPrefix("#") { continue }
            if body == "---", result.isEmpty { continue }
            if body == "---" || body == "..." || body.hasPrefix("--- ") {
                throw fail(number, "a second YAML document; XcodeGen reads one, remove `\(body.prefix(3))`")
            }
            if body.hasPrefix("%") { throw fail(number, "YAML directives (%) are not read; remove the line") }
            result.append(Line(number: number, indent: leading.count, text: body))
        }
        return result
    }

    private mutating func block(depth: Int) throws(InfoPlistError) -> SpecNode {
        let line = lines[index]
        guard depth <= Self.maximumDepth else {
            throw Self.fail(line.number, "nested deeper than \(Self.maximumDepth) levels; a project.yml is not")
        }
        return Self.isItem(line.text)
            ? try sequence(indent: line.indent, depth) : try mapping(indent: line.indent, depth)
    }

    private mutating func mapping(indent: Int, _ depth: Int) throws(InfoPlistError) -> SpecNode {
        var entries: [(key: String, value: SpecNode)] = []
        var seen: Set<String> = []
        let first = lines[index].number
        while index < lines.count, lines[index].indent >= indent {
            let line = lines[index]
            guard line.indent == indent else {
                throw Self.fail(
                    line.number,
                    "is indented more than the key above it, which has a value already; align it with that key, "
                        + "or if it continues that value, put the value on one line in quotes")
            }
            guard !Self.isItem(line.text) else {
                throw Self.fail(line.number, "a list item (`- `) among keys; indent it under the key it belongs to")
            }
            guard let (key, rest) = try Self.splitKey(line.text, line.number) else {
                throw Self.fail(line.number, "expected `key: value`, found `\(line.text.prefix(60))`")
            }
            guard key != "<<" else { throw Self.fail(line.number, "merge keys (<<) are not read; write the keys out") }
            guard seen.insert(key).inserted else {
                throw Self.fail(line.number, "`\(key.prefix(60))` appears twice in the same mapping; keep one")
            }
            index += 1
            let value =
                Self.isBlank(rest)
                ? try nested(under: indent, sameIndentList: true, line.number, depth)
                : try Self.scalarOrFlow(rest, line.number)
            entries.append((key, value))
        }
        return .mapping(entries, line: first)
    }

    private mutating func sequence(indent: Int, _ depth: Int) throws(InfoPlistError) -> SpecNode {
        var items: [SpecNode] = []
        let first = lines[index].number
        while index < lines.count, lines[index].indent >= indent {
            let line = lines[index]
            guard line.indent == indent else {
                throw Self.fail(line.number, "is indented more than the list item above it; align it with the `-`")
            }
            guard Self.isItem(line.text) else { break }  // a key after a list written at its parent's indent
            let rest = line.text.dropFirst().drop { $0 == " " }
            let isEntry = try Self.splitKey(rest, line.number) != nil
            let isBlock = isEntry || Self.isItem(rest)
            if Self.isBlank(rest) {
                index += 1
                items.append(try nested(under: indent, sameIndentList: false, line.number, depth))
            } else if isBlock {
                // `- key: value` or `- - x`: the rest is a block starting at its own column.
                lines[index] = Line(number: line.number, indent: indent + line.text.count - rest.count, text: rest)
                items.append(try block(depth: depth + 1))
            } else {
                index += 1
                items.append(try Self.scalarOrFlow(rest, line.number))
            }
        }
        return .sequence(items, line: first)
    }

    /// The block under a key or `-` with nothing after it, or `.empty` when none follows.
    private mutating func nested(
        under indent: Int, sameIndentList: Bool, _ line: Int, _ depth: Int
    ) throws(InfoPlistError) -> SpecNode {
        guard index < lines.count else { return .empty(line: line) }
        let next = lines[index]
        if next.indent > indent || (sameIndentList && next.indent == indent && Self.isItem(next.text)) {
            return try block(depth: depth + 1)
        }
        return .empty(line: line)
    }

    static func isItem(_ text: Substring) -> Bool { text == "-" || text.hasPrefix("- ") }

    static func isBlank(_ text: Substring) -> Bool {
        let rest = text.drop { $0 == " " || $0 == "\t" }
        return rest.isEmpty || rest.hasPrefix("#")
    }
}

/// A minimal pull tokenizer for GPX and KML, fed chunk by chunk: start tags (with their
/// attributes' raw text), end tags and the text between them.
///
/// It never expands an entity (`&…;` stays as written; GPX and KML carry numbers and times, which
/// never need one), so an entity bomb ("billion laughs") or an external entity cannot cost memory
/// or reach the disk; a DOCTYPE, comment or CDATA section is skipped in constant memory. Text is
/// kept only when the caller asks (``collectText``), and at most ``maxText`` bytes of it.
///
/// Kept rather than FoundationXML's `XMLParser` (issue 42, measured 2026-11-29 on a 150 MB GPX of
/// 1,578,946 points, release, the same work per point, 3 alternating runs each, CPU time):
/// `XMLParser` used 2.34-2.49 s of CPU to this tokenizer's 2.30-2.33 s (+4 %) and the same peak RSS
/// (23 MB to 22 MB); the difference, about 0.1 s, is under 1 % of a whole import's 14.1 s of CPU
/// for a 150 MB GPX (`bgtrack-bench import`), so speed and memory would allow it; but on Linux it
/// has no push interface (only `parse()`, pulling from an `InputStream` to the document's end,
/// where an import is fed chunk by chunk from an HTTP body and returns the records each chunk
/// completes: a thread per import and a blocking handoff per chunk), it reports lines and columns
/// where every record's position is a byte offset, and in libxml2's recover mode `parse()` answers
/// true for a truncated file (docs/server.md, imports).
struct XMLTokenizer {
    enum Token {
        /// The local name (prefix dropped: `gx:coord` is `coord`), the tag's bytes after the name,
        /// whether it closed itself (`<wpt …/>`), and where it started.
        case start(name: [UInt8], attributes: ArraySlice<UInt8>, selfClosing: Bool, byte: Int64)
        case end(name: [UInt8])
        case text([UInt8])
    }

    static let maxTag = 64 << 10
    static let maxText = 64 << 10

    /// Keep the text until the next tag: what the handler answered for the last tag.
    private var collectText = false
    private(set) var depth = 0
    private var offset: Int64 = 0

    private enum Mode { case text, tag, comment, cdata, declaration }
    private var mode = Mode.text
    private var tag: [UInt8] = []
    private var tagStart: Int64 = 0
    private var quote: UInt8 = 0
    /// A `>` came while a quote was open: the quote swallowed markup (damage, not a cut).
    private var quoteSwallowedMarkup = false
    private var text: [UInt8] = []
    private var textOverflow = false
    private var tail: (UInt8, UInt8) = (0, 0)
    private var bracketDepth = 0
    private var sawRoot = false

    /// - Parameter handle: called for each token; answers whether the text that follows matters.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ handle: (Token) throws(ImportFailure) -> Bool)
        throws(ImportFailure)
    {
        for index in 0..<chunk.count {
            let byte = chunk[index]
            switch mode {
            case .text:
                if byte == UInt8(ascii: "<") {
                    if collectText, !text.isEmpty {
                        if textOverflow {
                            throw failure(
                                "a text longer than \(Self.maxText >> 10) KiB where a number or a time belongs", index)
                        }
                        _ = try handle(.text(text))
                    }
                    text.removeAll(keepingCapacity: true)
                    textOverflow = false
                    mode = .tag
                    tag.removeAll(keepingCapacity: true)
                    tagStart = offset + Int64(index)
                    quote = 0
                } else if collectText {
                    if text.count < Self.maxText { text.append(byte) } else { textOverflow = true }
                } else if !sawRoot, !Self.isWhitespace(byte), !(offset + Int64(index) < 3 && byte >= 0xBB) {
                    throw failure("this is not XML (GPX or KML): it must start with <", index)
                }
            case .tag:
                if quote != 0 {
                    if byte == quote { quote = 0 } else if byte == UInt8(ascii: ">") { quoteSwallowedMarkup = true }
                    try appendTag(byte, index)
                    continue
                }
                if byte == UInt8(ascii: ">") {
                    try endTag(handle)
                    continue
                }
                if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && tag.first != UInt8(ascii: "!") {
                    quote = byte
                    quoteSwallowedMarkup = false
                }
                try appendTag(byte, index)
                if tag.count == 3, tag == Array("!--".utf8) {
                    mode = .comment
                    tail = (0, 0)
                } else if tag.count == 8, tag == Array("![CDATA[".utf8) {
                    mode = .cdata
                    tail = (0, 0)
                } else if tag.count == 2, tag[0] == UInt8(ascii: "!"), tag[1] != UInt8(ascii: "-"),
                    tag[1] != UInt8(ascii: "[")
                {
                    mode = .declaration
                    bracketDepth = 0
                }
            case .comment:
                if byte == UInt8(ascii: ">"), tail == (UInt8(ascii: "-"), UInt8(ascii: "-")) { mode = .text }
                tail = (tail.1, byte)
            case .cdata:
                if byte == UInt8(ascii: ">"), tail == (UInt8(ascii: "]"), UInt8(ascii: "]")) {
                    if collectText { text.removeLast(min(2, text.count)) }
                    mode = .text
                } else if collectText {
                    if text.count < Self.maxText { text.append(byte) } else { textOverflow = true }
                }
                tail = (tail.1, byte)
            case .declaration:
                // <!DOCTYPE …> with its internal subset in brackets, skipped whole: no entity it
                // declares is ever expanded.
                if byte == UInt8(ascii: "[") {
                    bracketDepth += 1
                } else if byte == UInt8(ascii: "]") {
                    bracketDepth -= 1
                } else if byte == UInt8(ascii: ">"), bracketDepth <= 0 {
                    mode = .text
                }
            }
        }
        offset += Int64(chunk.count)
    }

    /// The end of the file: fails when an element is still open (a truncated file).
    func finish() throws(ImportFailure) {
        guard sawRoot else { throw ImportFailure("the file holds no XML element (it is empty or not GPX/KML)") }
        if mode == .tag, quote != 0, quoteSwallowedMarkup { throw unclosedQuote() }
        guard depth == 0, mode == .text else {
            throw ImportFailure(
                "the XML ends at byte \(ImportPosition.grouped(Int(offset))) with \(depth) element(s) still open: the "
                    + "file is truncated (an interrupted download or copy?); the points before it were imported, get "
                    + "the complete file and import it again to add the rest")
        }
    }

    private mutating func appendTag(_ byte: UInt8, _ index: Int) throws(ImportFailure) {
        guard tag.count < Self.maxTag else {
            // A quote that swallowed markup was never closed; one that did not holds a huge value.
            if quote != 0, quoteSwallowedMarkup { throw unclosedQuote() }
            throw failure("a tag longer than \(Self.maxTag >> 10) KiB", index)
        }
        tag.append(byte)
    }

    private mutating func endTag(_ handle: (Token) throws(ImportFailure) -> Bool) throws(ImportFailure) {
        mode = .text
        guard let first = tag.first else { return }
        if first == UInt8(ascii: "?") || first == UInt8(ascii: "!") { return }
        if first == UInt8(ascii: "/") {
            depth -= 1
            guard depth >= 0 else { throw ImportFailure("a closing tag without an opening one at byte \(tagStart)") }
            collectText = try handle(.end(name: Self.localName(tag.dropFirst())))
            return
        }
        sawRoot = true
        let selfClosing = tag.last == UInt8(ascii: "/")
        let nameEnd = tag.firstIndex { Self.isWhitespace($0) || $0 == UInt8(ascii: "/") } ?? tag.count
        if !selfClosing { depth += 1 }
        collectText = try handle(
            .start(
                name: Self.localName(tag[..<nameEnd]), attributes: tag[nameEnd...], selfClosing: selfClosing,
                byte: tagStart))
    }

    private static func localName(_ name: ArraySlice<UInt8>) -> [UInt8] {
        let trimmed = name.prefix { !isWhitespace($0) }
        if let colon = trimmed.lastIndex(of: UInt8(ascii: ":")) { return Array(trimmed[(colon + 1)...]) }
        return Array(trimmed)
    }

    /// A quote opened in a tag and never closed: the tag swallowed what followed it. The file is
    /// damaged there, not cut short.
    private func unclosedQuote() -> ImportFailure {
        let mark = quote == UInt8(ascii: "'") ? "'" : "\""
        return ImportFailure(
            "the tag at byte \(ImportPosition.grouped(Int(tagStart))) opens an attribute value with \(mark) and never "
                + "closes it: the file is damaged there (not cut short); the points before it were imported, mend "
                + "or remove that tag and import the file again to add the rest")
    }

    private func failure(_ message: String, _ index: Int) -> ImportFailure {
        ImportFailure(
            "\(message) at byte \(ImportPosition.grouped(Int(offset) + index)); the points before it were imported")
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The value of attribute `name` in a start tag's attribute bytes, unescaped not at all.
    static func attribute(_ name: String, in attributes: ArraySlice<UInt8>) -> String? {
        let key = Array(name.utf8)
        var index = attributes.startIndex
        while index < attributes.endIndex {
            while index < attributes.endIndex, isWhitespace(attributes[index]) { index += 1 }
            let nameStart = index
            while index < attributes.endIndex, attributes[index] != UInt8(ascii: "="), !isWhitespace(attributes[index])
            {
                index += 1
            }
            let found = attributes[nameStart..<index]
            while index < attributes.endIndex, isWhitespace(attributes[index]) || attributes[index] == UInt8(ascii: "=")
            {
                index += 1
            }
            guard index < attributes.endIndex else { return nil }
            let quote = attributes[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            index += 1
            let valueStart = index
            while index < attributes.endIndex, attributes[index] != quote { index += 1 }
            let value = attributes[valueStart..<min(index, attributes.endIndex)]
            index += 1
            if found.elementsEqual(key) { return String(decoding: value, as: UTF8.self) }
        }
        return nil
    }
}

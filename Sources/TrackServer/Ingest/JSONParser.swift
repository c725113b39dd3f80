/// An RFC 8259 parser from bytes straight to ``JSONValue``, accepting what Foundation's
/// `JSONDecoder` accepted before it (a trailing comma in an array or object, too).
///
/// Foundation's `JSONDecoder` reaches a `JSONValue` only by trying each type in turn and throwing
/// a `DecodingError` for every miss (a string costs two, an object four): profiling single-point
/// OwnTracks ingest showed it as the largest cost of the request after the HTTP stack. This
/// parser reads each value once. Depth is bounded before it runs (``JSONBody/checkDepth(_:)``).
///
/// Kept for a 6.9× gain (issue 42 keeps a hand-written parser only at 2× or more): `bgtrack-bench
/// parse`, 2026-11-29, release, 3 runs, 3.48-3.51 µs a point of native batch bodies against
/// `JSONDecoder`'s 24.00-24.10 µs reaching the same `JSONValue`.
package struct JSONParser {
    package struct Failure: Error {
        package var message: String
    }

    private let bytes: [UInt8]
    private var index = 0

    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected content after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ message: String) -> Failure {
        Failure(message: "\(message) at byte \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of the JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of the JSON") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected character") }
        index += count
        return result
    }

    private mutating func object() throws(Failure) -> JSONValue {
        index += 1
        // Gathered in order, then hashed once each into a dictionary of the right size: inserting
        // as they came (a lookup for the repeated-name rule, then the insert, and the dictionary
        // regrown three times for an OwnTracks location) was most of parsing one.
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") && !members.isEmpty {
                index += 1
                return Self.object(members)
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name")
            }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the JSON") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return Self.object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    /// An object of `members` in document order. A repeated name keeps its first value, as
    /// Foundation's decoder did: written last to first, the first occurrence is written last.
    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        var object = [String: JSONValue](minimumCapacity: members.count)
        for (name, value) in members.reversed() { object[name] = value }
        return .object(object)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") && !elements.isEmpty {
                index += 1
                return .array(elements)
            }
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the JSON") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    /// A string from its opening quote; escapes decoded, UTF-8 validated.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            index += 1
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unexpected end of the JSON") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): decoded.append(contentsOf: try unicodeEscape())
                default: throw failure("an invalid escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                decoded.append(byte)
                index += 1
            }
        }
        throw failure("an unterminated string")
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), a surrogate pair taking two escapes.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw failure("a lone surrogate in a \\u escape") }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw failure("a lone surrogate in a \\u escape")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unexpected end of the JSON") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number by RFC 8259's grammar (no leading zeros, no `+`, no bare `.`), finite.
    private mutating func number() throws(Failure) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number without digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) { throw failure("a number with a leading zero") }
        } else {
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        var significant = bytes[start..<index].contains { $0 > UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number without fraction digits") }
            while index < bytes.count && isDigit(bytes[index]) {
                significant = significant || bytes[index] != UInt8(ascii: "0")
                index += 1
            }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number without exponent digits") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Out of range either way (Foundation refuses both): too large, or so small it reads as 0.
        guard let number = Double(text), number.isFinite, number != 0 || !significant else {
            throw failure("the number \(text.prefix(40)) does not fit a double")
        }
        return number
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

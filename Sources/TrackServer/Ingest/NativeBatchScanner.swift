import BackgroundCore
import LocationLog

/// Reads a plain native batch (docs/protocol.md §Batches) in one pass over its bytes, straight into
/// ``WireSample`` values, or answers `nil` so the caller takes the general path.
///
/// Profiling 500-point batches showed Foundation's `JSONDecoder` as the largest cost of ingest
/// after SQLite: about 7 µs a point for 150 bytes. A phone's batch has one shape, so this reads
/// exactly that shape: the members `batch`, `device`, `samples`, `v` and `tz`, each sample's
/// fourteen known members, unescaped strings, numbers and booleans. Anything else (an unknown or repeated member,
/// an escape, a wrong type, a missing field, a number outside what it reads exactly, invalid JSON)
/// answers `nil`, and the route decodes the body as before, with the same results and messages.
/// Whatever it accepts, `JSONDecoder` decodes to the same values (the tests compare them on many
/// seeded bodies).
///
/// It names the record's fields itself, by wire key, on purpose: a `switch` over constant keys
/// with direct stores. Reading them from `SampleValues.Field` by kind (a table of packed keys,
/// then the record's setters) cost 5-19 % of its speed in `bgtrack-bench parse`. A field added to
/// the record needs no case here: a sample holding its key takes the general path, the record's
/// `Codable`, until a case is added for speed.
///
/// Kept for a 7.1× gain (issue 42 keeps a hand-written parser only at 2× or more): `bgtrack-bench
/// parse`, 2026-11-29, release, 3 runs, the native parser on this scanner 0.91-0.92 µs a point,
/// validation included, against `JSONDecoder`'s 6.48-6.53 µs into the wire types without it.
struct NativeBatchScanner {
    struct Batch {
        var batch: String?
        var device: String?
        var samples: [WireSample]
        /// `v` and `tz` (version 3, docs/protocol.md §Zones).
        var version: Int64?
        var timeZone: String?
    }

    /// Not the plain shape: take the general path.
    private struct Bail: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    static func scan(_ bytes: [UInt8]) -> Batch? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = NativeBatchScanner(bytes: buffer)
            return try? scanner.batch()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: The shape

    private mutating func batch() throws(Bail) -> Batch {
        var result = Batch(batch: nil, device: nil, samples: [])
        var seen: UInt8 = 0
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        repeat {
            skipWhitespace()
            let key = try key()
            let bit: UInt8
            switch key {
            case Key.batch:
                bit = 1
                result.batch = try optionalString()
            case Key.device:
                bit = 2
                result.device = try optionalString()
            case Key.samples:
                bit = 4
                result.samples = try samples()
            case Key.v:
                bit = 8
                result.version = try integer()
            case Key.tz:
                bit = 16
                result.timeZone = try optionalString()
            default: throw Bail()
            }
            guard seen & bit == 0 else { throw Bail() }
            seen |= bit
            skipWhitespace()
        } while try next(closing: UInt8(ascii: "}"))
        skipWhitespace()
        guard seen & 4 != 0, index == bytes.count else { throw Bail() }
        return result
    }

    private mutating func samples() throws(Bail) -> [WireSample] {
        try expect(UInt8(ascii: "["))
        var samples: [WireSample] = []
        samples.reserveCapacity(bytes.count / 128)
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return samples
        }
        repeat {
            skipWhitespace()
            samples.append(try sample())
            skipWhitespace()
        } while try next(closing: UInt8(ascii: "]"))
        return samples
    }

    private mutating func sample() throws(Bail) -> WireSample {
        try expect(UInt8(ascii: "{"))
        var sample = WireSample(id: "", seq: 0, values: SampleValues(time: .epoch, latitude: 0, longitude: 0))
        var seen: UInt16 = 0
        repeat {
            skipWhitespace()
            let key = try key()
            let bit: UInt16
            switch key {
            case Key.id:
                bit = 1 << 0
                sample.id = try string()
            case Key.seq:
                bit = 1 << 1
                sample.seq = try integer()
            case Key.t:
                bit = 1 << 2
                sample.values.time.milliseconds = try integer()
            case Key.lat:
                bit = 1 << 3
                sample.values.latitude = try number()
            case Key.lon:
                bit = 1 << 4
                sample.values.longitude = try number()
            case Key.acc:
                bit = 1 << 5
                sample.values.accuracy = try optionalNumber()
            case Key.alt:
                bit = 1 << 6
                sample.values.altitude = try optionalNumber()
            case Key.speed:
                bit = 1 << 7
                sample.values.speed = try optionalNumber()
            case Key.course:
                bit = 1 << 8
                sample.values.course = try optionalNumber()
            case Key.battery:
                bit = 1 << 9
                sample.values.battery = try optionalNumber()
            case Key.charging:
                bit = 1 << 10
                sample.values.charging = try optionalBool()
            case Key.vacc:
                bit = 1 << 13
                sample.values.verticalAccuracy = try optionalNumber()
            case Key.trigger:
                bit = 1 << 11
                sample.trigger = try optionalString()
            case Key.state:
                bit = 1 << 12
                sample.state = try optionalString()
            default: throw Bail()
            }
            guard seen & bit == 0 else { throw Bail() }
            seen |= bit
            skipWhitespace()
        } while try next(closing: UInt8(ascii: "}"))
        // id, seq, t, lat and lon are required.
        guard seen & 0b1_1111 == 0b1_1111 else { throw Bail() }
        return sample
    }

    // MARK: Tokens

    /// A member name of at most 8 bytes packed into an integer (its first byte lowest), then the
    /// `:` after it. Longer names are none of ours.
    private mutating func key() throws(Bail) -> UInt64 {
        try expect(UInt8(ascii: "\""))
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try peek()
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            // An escape, a control character or a long name: not one of ours (or not JSON).
            guard byte >= 0x20, byte != UInt8(ascii: "\\"), shift < 64 else { throw Bail() }
            packed |= UInt64(byte) << shift
            shift += 8
        }
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        return packed
    }

    /// After a member or element: `true` after a `,`, `false` after the closing bracket.
    private mutating func next(closing: UInt8) throws(Bail) -> Bool {
        let byte = try peek()
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == closing else { throw Bail() }
        return false
    }

    private mutating func string() throws(Bail) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while true {
            let byte = try peek()
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw Bail() }
            ascii = ascii && byte < 0x80
            index += 1
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if ascii { return String(decoding: text, as: UTF8.self) }
        guard let validated = String(validating: text, as: UTF8.self) else { throw Bail() }
        return validated
    }

    private mutating func optionalString() throws(Bail) -> String? {
        try isNull() ? nil : string()
    }

    private mutating func optionalNumber() throws(Bail) -> Double? {
        try isNull() ? nil : number()
    }

    private mutating func optionalBool() throws(Bail) -> Bool? {
        if try isNull() { return nil }
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw Bail()
    }

    private mutating func isNull() throws(Bail) -> Bool {
        try literal("null")
    }

    /// Consumes `word` if it is next (whatever follows it is checked as the next token).
    private mutating func literal(_ word: StaticString) throws(Bail) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { return false }
        index += count
        return true
    }

    /// A whole number in integer syntax (`-?(0|[1-9][0-9]*)`, at most 18 digits, so it fits);
    /// a fraction, an exponent, `-0` or a longer number take the general path.
    private mutating func integer() throws(Bail) -> Int64 {
        let negative = try peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            // A 19th digit could overflow: checked before multiplying.
            guard index - start < 18 else { throw Bail() }
            value = value * 10 + Int64(digit)
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Bail() }
        guard !(negative && value == 0), !followsNumber() else { throw Bail() }
        return negative ? -value : value
    }

    /// A number by RFC 8259's grammar, as the nearest double (what `JSONDecoder` and
    /// `Double(String)` answer: both round correctly).
    ///
    /// Up to 2^53 significant digits and a power of ten within ±22, one exact integer times or
    /// divided by one exact power of ten is correctly rounded (Clinger's fast path), with no
    /// allocation. Longer mantissas go through `Double(String)`. Zero from nonzero digits (an
    /// underflow, which Foundation refuses), a subnormal, an infinity, `-0` and `0e5` take the
    /// general path.
    private mutating func number() throws(Bail) -> Double {
        let negative = try peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var exact = true
        var exponent = 0
        var nonzero = false
        let integerStart = index
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            Self.accumulate(digit, into: &mantissa, exact: &exact, nonzero: &nonzero)
            if !exact { exponent += 1 }
            index += 1
        }
        let integerDigits = index - integerStart
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Bail() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                Self.accumulate(digit, into: &mantissa, exact: &exact, nonzero: &nonzero)
                if exact { exponent -= 1 }
                index += 1
            }
            guard index > fractionStart else { throw Bail() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            // Foundation refuses `0e5` and `0E5` (not `0e+5` or `0.0e5`): a bare zero with an
            // exponent takes the general path, which answers as Foundation does.
            guard index - integerStart > 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Bail() }
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            var written = 0
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                // Beyond 10^9 the value is out of range either way; the general path says so.
                guard written < 100_000_000 else { throw Bail() }
                written = written * 10 + Int(digit)
                index += 1
            }
            guard index > exponentStart else { throw Bail() }
            exponent += negativeExponent ? -written : written
        }
        guard !followsNumber(), !(negative && !nonzero) else { throw Bail() }
        let value: Double
        if exact, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            let magnitude = Double(mantissa)
            let scale = Self.powerOfTen(exponent.magnitude)
            value = exponent < 0 ? magnitude / scale : magnitude * scale
        } else {
            let digits = UnsafeBufferPointer(rebasing: bytes[integerStart..<index])
            guard let parsed = Double(String(decoding: digits, as: UTF8.self)) else { throw Bail() }
            value = parsed
        }
        // Zero from nonzero digits is an underflow; keep only normal, finite values and true zeros.
        guard value.isFinite, value == 0 ? !nonzero : value.magnitude >= Double.leastNormalMagnitude else {
            throw Bail()
        }
        return negative ? -value : value
    }

    /// Adds a digit to the mantissa while it stays exact (below 10^18); later digits only mark it
    /// inexact (the caller then scales by the exponent or reparses).
    private static func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool, nonzero: inout Bool)
    {
        nonzero = nonzero || digit != 0
        guard exact else { return }
        if mantissa < 100_000_000_000_000_000 {
            mantissa = mantissa * 10 + UInt64(digit)
        } else {
            exact = false
        }
    }

    /// Whether the byte after a number continues it in a way JSON does not allow (`1.`, `1e`,
    /// `01`, `1x`): only whitespace, `,`, `}` and `]` may follow.
    private func followsNumber() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return false
        default: return true
        }
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }

    /// 10^power for power ≤ 22, exact: every partial product is 2^k × 5^k with 5^22 < 2^53.
    private static func powerOfTen(_ power: UInt) -> Double {
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    private func peek() throws(Bail) -> UInt8 {
        guard index < bytes.count else { throw Bail() }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(Bail) {
        guard try peek() == byte else { throw Bail() }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Member names packed as ``key()`` packs them (literals, so no lazy initialisation in the
    /// loop; the tests check each against ``pack(_:)``).
    enum Key {
        static let batch: UInt64 = 0x68_6374_6162  // "batch"
        static let device: UInt64 = 0x6563_6976_6564  // "device"
        static let samples: UInt64 = 0x73_656c_706d_6173  // "samples"
        static let v: UInt64 = 0x76  // "v"
        static let tz: UInt64 = 0x7a74  // "tz"
        static let id: UInt64 = 0x6469  // "id"
        static let seq: UInt64 = 0x71_6573  // "seq"
        static let t: UInt64 = 0x74  // "t"
        static let lat: UInt64 = 0x74_616c  // "lat"
        static let lon: UInt64 = 0x6e_6f6c  // "lon"
        static let acc: UInt64 = 0x63_6361  // "acc"
        static let vacc: UInt64 = 0x6363_6176  // "vacc"
        static let alt: UInt64 = 0x74_6c61  // "alt"
        static let speed: UInt64 = 0x64_6565_7073  // "speed"
        static let course: UInt64 = 0x6573_7275_6f63  // "course"
        static let battery: UInt64 = 0x79_7265_7474_6162  // "battery"
        static let charging: UInt64 = 0x676e_6967_7261_6863  // "charging"
        static let trigger: UInt64 = 0x72_6567_6769_7274  // "trigger"
        static let state: UInt64 = 0x65_7461_7473  // "state"

        static func pack(_ name: String) -> UInt64 {
            name.utf8.enumerated().reduce(0) { packed, element in
                packed | UInt64(element.element) << (8 * element.offset)
            }
        }
    }
}

/// A request encoded once whose only change from one request to the next is a decimal number in
/// it (a point's time): each request is a copy with those digits rewritten, so a single-point load
/// generator spends almost nothing per request of the CPU it shares with the server it measures.
package struct StampedRequest: Sendable {
    package let bytes: [UInt8]
    /// Where the number's digits are in `bytes`.
    package let digits: Range<Int>
    package let base: Int64

    /// `bytes` holding `base` in decimal, written exactly once; `nil` when it is not there exactly
    /// once or is negative (then encode each request in full instead).
    package init?(_ bytes: [UInt8], base: Int64) {
        guard base >= 0 else { return nil }
        let text = Array(String(base).utf8)
        var found: [Int] = []
        var index = 0
        while index + text.count <= bytes.count {
            if bytes[index..<index + text.count].elementsEqual(text) {
                let before = index == 0 ? nil : bytes[index - 1]
                let after = index + text.count == bytes.count ? nil : bytes[index + text.count]
                let isDigit = { (byte: UInt8?) in byte.map { (48...57).contains($0) } ?? false }
                if !isDigit(before) && !isDigit(after) { found.append(index) }
            }
            index += 1
        }
        guard found.count == 1, let start = found.first else { return nil }
        self.bytes = bytes
        digits = start..<start + text.count
        self.base = base
    }

    /// The request with `base + offset` in place of `base`; `nil` when that number has another
    /// number of digits (the caller encodes that request in full).
    package func request(offset: Int64) -> [UInt8]? {
        var value = base + offset
        guard value >= 0 else { return nil }
        var copy = bytes
        var position = digits.upperBound
        while position > digits.lowerBound {
            position -= 1
            copy[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
            value /= 10
        }
        return value == 0 && (digits.count == 1 || copy[digits.lowerBound] != 48) ? copy : nil
    }
}

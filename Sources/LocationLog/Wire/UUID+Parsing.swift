package import Foundation

extension UUID {
    /// `UUID(uuidString:)`, reading the canonical form (`8-4-4-4-12` hex digits, either case)
    /// itself.
    ///
    /// On Linux, Foundation reads every UUID with `sscanf`: profiling 500-sample batches showed
    /// it as a third of the server's parsing time. Anything but the canonical form goes to
    /// Foundation, so what is accepted and the value read are Foundation's (the tests compare
    /// both on seeded and mutated ids).
    package init?(parsing text: String) {
        let canonical = text.utf8.withContiguousStorageIfAvailable { bytes -> uuid_t? in
            guard bytes.count == 36 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
                var at = 0
                for slot in 0..<16 {
                    // Hyphens before bytes 4, 6, 8 and 10 (text offsets 8, 13, 18, 23).
                    if slot == 4 || slot == 6 || slot == 8 || slot == 10 {
                        guard bytes[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = bytes[at].hexDigitValue, let low = bytes[at + 1].hexDigitValue else {
                        return false
                    }
                    output[slot] = high << 4 | low
                    at += 2
                }
                return true
            }
            return complete ? uuid : nil
        }
        if let canonical = canonical ?? nil {
            self.init(uuid: canonical)
        } else {
            guard let parsed = UUID(uuidString: text) else { return nil }
            self = parsed
        }
    }
}

extension UInt8 {
    /// The value of an ASCII hex digit (`0-9`, `a-f`, `A-F`), `nil` for any other byte: for UUIDs
    /// here and percent-escapes in the server's form decoding.
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// SHA-256 (FIPS 180-4): tokens are stored as their hashes, and an import is known by the hash
/// of its whole file.
///
/// Tokens are 256-bit random values, so a plain unsalted hash is enough to keep a leaked database
/// from yielding usable tokens; this avoids building BoringSSL (swift-crypto) a second time on
/// the build machines. Checked against the FIPS 180-4 test vectors in `SHA256Tests`, whole and
/// fed in pieces of every size.
package enum SHA256 {
    fileprivate static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest of `bytes` as 32 bytes.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(Array(bytes))
        return hasher.finalize()
    }

    /// A digest computed piece by piece, as a file or a body streams by: the same 32 bytes as
    /// ``digest(_:)`` of the pieces joined, however they were cut.
    package struct Hasher: Sendable {
        private var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        /// Bytes of an unfinished 64-byte block.
        private var partial: [UInt8] = []
        private var length: UInt64 = 0

        package init() {}

        package mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var rest = bytes[...]
            if !partial.isEmpty {
                let taken = rest.prefix(64 - partial.count)
                partial += taken
                rest = rest.dropFirst(taken.count)
                guard partial.count == 64 else { return }
                let block = partial
                partial.removeAll(keepingCapacity: true)
                block.withUnsafeBytes { compress($0) }
            }
            let whole = rest.count / 64 * 64
            if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
            partial += rest.dropFirst(whole)
        }

        /// The digest of everything fed so far; the hasher can go on being fed.
        package func finalize() -> [UInt8] {
            var copy = self
            let bitLength = length &* 8
            var tail: [UInt8] = [0x80]
            while (partial.count + tail.count) % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> shift))
            }
            copy.length = length
            copy.update(tail)
            return copy.state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - $0 * 8)) } }
        }

        /// Runs the compression function over whole 64-byte blocks.
        private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
            var (h0, h1, h2, h3, h4, h5, h6, h7) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
                SHA256.roundConstants.withUnsafeBufferPointer { constants in
                    for base in stride(from: 0, to: blocks.count, by: 64) {
                        for index in 0..<16 {
                            words[index] = UInt32(
                                bigEndian: blocks.loadUnaligned(fromByteOffset: base + index * 4, as: UInt32.self))
                        }
                        for index in 16..<64 {
                            let w15 = words[index - 15]
                            let w2 = words[index - 2]
                            let s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >> 3)
                            let s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >> 10)
                            words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
                        }
                        var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                        for index in 0..<64 {
                            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                            let choice = (e & f) ^ (~e & g)
                            let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ words[index]
                            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                            let majority = (a & b) ^ (a & c) ^ (b & c)
                            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ sum0 &+ majority)
                        }
                        h0 = h0 &+ a
                        h1 = h1 &+ b
                        h2 = h2 &+ c
                        h3 = h3 &+ d
                        h4 = h4 &+ e
                        h5 = h5 &+ f
                        h6 = h6 &+ g
                        h7 = h7 &+ h
                    }
                }
            }
            state = [h0, h1, h2, h3, h4, h5, h6, h7]
        }
    }

    /// Lowercase hex of a digest.
    package static func hex(digest: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: digest.count * 2) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[index * 2] = hexDigits[Int(byte >> 4)]
                buffer[index * 2 + 1] = hexDigits[Int(byte & 0x0f)]
            }
            return digest.count * 2
        }
    }

    /// The digest of the UTF-8 bytes of `text`, as lowercase hex.
    package static func hex(_ text: String) -> String {
        // Every authenticated request hashes its token: 64 ASCII digits written in place.
        hex(digest: digest(Array(text.utf8)))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

@inline(__always)
private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
}

package import Crypto

/// SHA-256 is swift-crypto's (`Crypto.SHA256`): tokens are stored as their hashes, and an import is
/// known by the hash of its whole file. Tokens are 256-bit random values, so a plain unsalted hash
/// is enough to keep a leaked database from yielding usable tokens.
extension SHA256Digest {
    /// The 64 lowercase hex digits a token's hash and an import's fingerprint are stored as.
    package var hex: String {
        String(unsafeUninitializedCapacity: Self.byteCount * 2) { buffer in
            var index = 0
            for byte in self {
                buffer[index] = Self.hexDigits[Int(byte >> 4)]
                buffer[index + 1] = Self.hexDigits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

import Crypto
import Foundation

/// Minting and hashing bearer tokens. Only the hash is ever stored.
public enum Tokens {
    /// A new 256-bit random token, URL-safe (hex), prefixed by its kind for humans.
    public static func mint(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + "_" + bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The stored form of a token.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).hex
    }
}

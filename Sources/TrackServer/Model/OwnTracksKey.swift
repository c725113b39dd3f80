/// The key of OwnTracks' payload encryption, as the apps derive it from the secret the user types.
///
/// OwnTracks takes the secret's UTF-8 bytes, cut at 32 and padded with zero bytes, as the
/// libsodium secretbox key: owntracks/ios `Connection.m` (`encrypt:`/`decrypt:` zero a 32-byte key,
/// then `getBytes:maxLength:32 … encoding:NSUTF8StringEncoding`), owntracks/android
/// `EncryptionProvider.kt` (`keyString.toByteArray().copyOf(KEYBYTES)`), owntracks/recorder
/// `recorder.c` `decrypt()` (up to 32 bytes from its key database into a zeroed key).
///
/// Its description never shows the key.
public struct OwnTracksKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// libsodium's `crypto_secretbox_KEYBYTES`.
    public static let byteCount = 32

    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// The key stored for a device: exactly ``byteCount`` bytes, else `nil`.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The key OwnTracks derives from `secret` (the app's "Encryption key" setting).
    /// - Throws: ``OwnTracksKeyError`` for an empty secret, or one whose 32nd byte falls inside a
    ///   character (the iOS app drops that character, the Android app keeps its first bytes: the
    ///   two would not agree on the key).
    public init(secret: String) throws(OwnTracksKeyError) {
        let utf8 = Array(secret.utf8)
        guard !utf8.isEmpty else { throw .empty }
        if utf8.count > Self.byteCount, utf8[Self.byteCount] & 0xC0 == 0x80 {
            throw .splitCharacter
        }
        bytes = Array(utf8.prefix(Self.byteCount)) + Array(repeating: 0, count: max(0, Self.byteCount - utf8.count))
    }

    /// Whether OwnTracks uses only part of `secret` (its first 32 UTF-8 bytes).
    public static func isCut(_ secret: String) -> Bool { secret.utf8.count > byteCount }

    public var description: String { "OwnTracksKey(redacted)" }
    public var debugDescription: String { description }
}

/// Why a secret cannot be an OwnTracks key.
public enum OwnTracksKeyError: Error, Hashable, CustomStringConvertible {
    case empty
    case splitCharacter

    public var description: String {
        switch self {
        case .empty:
            "the OwnTracks key is empty; give the secret set in the app under Settings → Encryption key"
        case .splitCharacter:
            "the OwnTracks key's 32nd byte falls inside a character: OwnTracks uses only the first 32 bytes "
                + "and its iOS and Android apps cut such a key differently; choose a secret whose first 32 "
                + "bytes end on a whole character (an ASCII secret of up to 32 characters always does)"
        }
    }
}

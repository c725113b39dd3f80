import CSodium
import Foundation

/// OwnTracks' `_type: "encrypted"` payloads: libsodium secretbox (XSalsa20-Poly1305), the `data`
/// field base64 of nonce (24 bytes) ‖ MAC (16) ‖ ciphertext, as the apps write it
/// (owntracks/ios `Connection.m` `encrypt:`, owntracks/android `EncryptionProvider.kt` `encrypt`)
/// and the Recorder opens it (owntracks/recorder `recorder.c` `decrypt()`).
///
/// The crypto is libsodium's own (Debian's libsodium), not a re-implementation.
enum OwnTracksEncryption {
    static let nonceBytes = Int(crypto_secretbox_NONCEBYTES)
    static let macBytes = Int(crypto_secretbox_MACBYTES)

    /// `sodium_init` once before any other call (idempotent and thread-safe in libsodium).
    private static let ready: Bool = sodium_init() >= 0

    /// The plaintext of an encrypted message's `data`.
    /// - Throws: ``OwnTracksDecryptionError``.
    static func open(_ data: String, key: OwnTracksKey) throws(OwnTracksDecryptionError) -> [UInt8] {
        guard ready else { throw .unavailable }
        guard let wire = Data(base64Encoded: data).map(Array.init) else { throw .notBase64 }
        guard wire.count >= nonceBytes + macBytes else { throw .tooShort(wire.count) }
        let nonce = Array(wire[..<nonceBytes])
        let ciphertext = Array(wire[nonceBytes...])
        // Room for the ciphertext minus its MAC, as crypto_secretbox_open_easy writes.
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - macBytes)
        let opened = crypto_secretbox_open_easy(&plaintext, ciphertext, UInt64(ciphertext.count), nonce, key.bytes)
        guard opened == 0 else { throw .wrongKey }
        return plaintext
    }

    /// `plaintext` sealed as OwnTracks sends it: base64 of nonce ‖ MAC ‖ ciphertext. A fresh random
    /// nonce unless one is given (tests pin it).
    static func seal(_ plaintext: [UInt8], key: OwnTracksKey, nonce given: [UInt8]? = nil) -> String {
        precondition(ready, "libsodium failed to initialise")
        var nonce = given ?? [UInt8](repeating: 0, count: nonceBytes)
        if given == nil { randombytes_buf(&nonce, nonceBytes) }
        precondition(nonce.count == nonceBytes, "a secretbox nonce is \(nonceBytes) bytes")
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + macBytes)
        _ = crypto_secretbox_easy(&ciphertext, plaintext, UInt64(plaintext.count), nonce, key.bytes)
        return Data(nonce + ciphertext).base64EncodedString()
    }
}

/// Why an encrypted OwnTracks message could not be opened.
enum OwnTracksDecryptionError: Error, Hashable, CustomStringConvertible {
    case notBase64
    case tooShort(Int)
    case wrongKey
    case unavailable

    var description: String {
        switch self {
        case .notBase64: "field \"data\" of the encrypted message is not base64"
        case .tooShort(let count):
            "field \"data\" holds \(count) bytes, fewer than a secretbox nonce and MAC (40): not an OwnTracks payload"
        case .wrongKey:
            "the encrypted message does not open with the OwnTracks key set for this device: the app's "
                + "Encryption key and the one given to `bgtrack device set --owntracks-key` differ "
                + "(or the message was altered)"
        case .unavailable: "libsodium could not be initialised on this server"
        }
    }
}

import Foundation

/// OwnTracks' `_type: "encrypted"` payloads: libsodium secretbox (XSalsa20-Poly1305), the `data`
/// field base64 of nonce (24 bytes) ‖ MAC (16) ‖ ciphertext, as the apps write it
/// (owntracks/ios `Connection.m` `encrypt:`, owntracks/android `EncryptionProvider.kt` `encrypt`)
/// and the Recorder opens it (owntracks/recorder `recorder.c` `decrypt()`).
///
/// The crypto is libsodium's own, loaded at run time (``SecretBox``), not a re-implementation.
enum OwnTracksEncryption {
    static let nonceBytes = SecretBox.nonceBytes
    static let macBytes = SecretBox.macBytes

    /// The plaintext of an encrypted message's `data`, opened by `library` (the system's
    /// libsodium unless a test gives another).
    /// - Throws: ``OwnTracksDecryptionError``.
    static func open(
        _ data: String, key: OwnTracksKey, library: Result<SecretBox, SecretBoxUnavailable> = SecretBox.system
    ) throws(OwnTracksDecryptionError) -> [UInt8] {
        guard let wire = Data(base64Encoded: data).map(Array.init) else { throw .notBase64 }
        guard wire.count >= nonceBytes + macBytes else { throw .tooShort(wire.count) }
        let box: SecretBox
        switch library {
        case .success(let loaded): box = loaded
        case .failure(let unavailable): throw .unavailable(unavailable)
        }
        guard let plaintext = box.open(Array(wire[nonceBytes...]), nonce: Array(wire[..<nonceBytes]), key: key.bytes)
        else { throw .wrongKey }
        return plaintext
    }

    /// `plaintext` sealed as OwnTracks sends it: base64 of nonce ‖ MAC ‖ ciphertext. A fresh random
    /// nonce unless one is given (tests pin it).
    /// - Throws: ``SecretBoxUnavailable`` when libsodium cannot be loaded.
    static func seal(
        _ plaintext: [UInt8], key: OwnTracksKey, nonce given: [UInt8]? = nil,
        library: Result<SecretBox, SecretBoxUnavailable> = SecretBox.system
    ) throws(SecretBoxUnavailable) -> String {
        let box = try library.get()
        let nonce = given ?? box.randomBytes(nonceBytes)
        precondition(nonce.count == nonceBytes, "a secretbox nonce is \(nonceBytes) bytes")
        return Data(nonce + box.seal(plaintext, nonce: nonce, key: key.bytes)).base64EncodedString()
    }
}

/// Why an encrypted OwnTracks message could not be opened.
enum OwnTracksDecryptionError: Error, Hashable, CustomStringConvertible {
    case notBase64
    case tooShort(Int)
    case wrongKey
    case unavailable(SecretBoxUnavailable)

    var description: String {
        switch self {
        case .notBase64: "field \"data\" of the encrypted message is not base64"
        case .tooShort(let count):
            "field \"data\" holds \(count) bytes, fewer than a secretbox nonce and MAC (40): not an OwnTracks payload"
        case .wrongKey:
            "the encrypted message does not open with the OwnTracks key set for this device: the app's "
                + "Encryption key and the one given to `bgtrack device set --owntracks-key` differ "
                + "(or the message was altered)"
        case .unavailable(let why): why.description
        }
    }
}

import ArgumentParser
import Foundation
import TrackServer

/// `--owntracks-key` of `device add` and `device set`: the secret set in the OwnTracks app
/// (Settings → Encryption key), so the server can open the device's `_type: "encrypted"` messages.
///
/// `-` reads it from the first line of standard input, which keeps it out of the shell history and
/// the process list. It is never printed back; the store keeps the 32-byte key derived from it.
struct OwnTracksKeyOption: ParsableArguments {
    @Option(
        name: .customLong("owntracks-key"),
        help: ArgumentHelp(
            "The OwnTracks app's Encryption key, so the server decrypts this device's encrypted messages; "
                + "'-' reads it from standard input. Kept in the database, never printed.",
            valueName: "secret"))
    var secret: String?

    func validate() throws {
        guard let secret, secret != "-" else { return }
        _ = try Self.key(secret)
    }

    /// The key, reading standard input for `-`; `nil` when the flag was not given.
    func key(standardInput: () -> String? = { readLine(strippingNewline: true) }) throws -> OwnTracksKey? {
        guard let secret else { return nil }
        guard secret == "-" else { return try Self.key(secret) }
        guard let line = standardInput() else {
            throw ValidationError("--owntracks-key -: standard input ended before a line with the key")
        }
        return try Self.key(line)
    }

    static func key(_ secret: String) throws -> OwnTracksKey {
        do {
            let key = try OwnTracksKey(secret: secret)
            if OwnTracksKey.isCut(secret) {
                FileHandle.standardError.write(
                    Data("note: OwnTracks uses only the key's first 32 bytes; so does the server\n".utf8))
            }
            return key
        } catch {
            throw ValidationError("--owntracks-key: \(error.description)")
        }
    }
}

import Foundation
import Testing

@testable import TrackServer

/// The secretbox of OwnTracks' encrypted messages against vectors sealed by PyNaCl
/// (scripts/owntracks-vectors.py), and the key derivation of the OwnTracks apps.
@Suite("OwnTracks payload encryption (issue 23, item 1)")
struct OwnTracksEncryptionTests {
    static func data(of vector: OwnTracksVectors.Vector) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(vector.body.utf8)) as? [String: String])
        return try #require(object["data"])
    }

    @Test(arguments: OwnTracksVectors.all)
    func aMessageSealedByPyNaClOpensWithTheKeyDerivedFromTheSecret(vector: OwnTracksVectors.Vector) throws {
        let key = try OwnTracksKey(secret: vector.secret)
        let opened = try OwnTracksEncryption.open(try Self.data(of: vector), key: key)
        #expect(String(decoding: opened, as: UTF8.self) == vector.plaintext)
    }

    @Test(arguments: OwnTracksVectors.all)
    func sealingWithTheSameNonceGivesPyNaClsBytes(vector: OwnTracksVectors.Vector) throws {
        let data = try Self.data(of: vector)
        let nonce = Array(try #require(Data(base64Encoded: data)).prefix(24))
        let sealed = try OwnTracksEncryption.seal(
            Array(vector.plaintext.utf8), key: try OwnTracksKey(secret: vector.secret), nonce: nonce)
        #expect(sealed == data)
    }

    @Test func aRoundTripWithAFreshNonceEachTime() throws {
        let key = try OwnTracksKey(secret: "hunter2")
        let message = Array(#"{"_type":"location","lat":1,"lon":2,"tst":3}"#.utf8)
        let first = try OwnTracksEncryption.seal(message, key: key)
        let second = try OwnTracksEncryption.seal(message, key: key)
        #expect(first != second)
        #expect(try OwnTracksEncryption.open(first, key: key) == message)
        #expect(try OwnTracksEncryption.open(second, key: key) == message)
        #expect(try OwnTracksEncryption.open(try OwnTracksEncryption.seal([], key: key), key: key) == [])
    }

    @Test func aWrongKeyOrAnAlteredByteDoesNotOpen() throws {
        let vector = OwnTracksVectors.all[0]
        let data = try Self.data(of: vector)
        #expect(throws: OwnTracksDecryptionError.wrongKey) {
            _ = try OwnTracksEncryption.open(data, key: try OwnTracksKey(secret: vector.secret + "x"))
        }
        var bytes = Array(try #require(Data(base64Encoded: data)))
        for index in [0, 30, bytes.count - 1] {
            bytes[index] ^= 0x01
            #expect(throws: OwnTracksDecryptionError.wrongKey) {
                _ = try OwnTracksEncryption.open(
                    Data(bytes).base64EncodedString(), key: try OwnTracksKey(secret: vector.secret))
            }
            bytes[index] ^= 0x01
        }
    }

    @Test(arguments: ["not base64!", "%%%%", String(repeating: "A", count: 7), "QUJD\nREVG"])
    func dataThatIsNotBase64IsRefusedAsUnreadable(data: String) throws {
        let key = try OwnTracksKey(secret: "k")
        #expect(throws: OwnTracksDecryptionError.notBase64) { _ = try OwnTracksEncryption.open(data, key: key) }
    }

    @Test(arguments: [0, 1, 39])
    func dataShorterThanANonceAndAMACIsRefused(count: Int) throws {
        let data = Data(repeating: 7, count: count).base64EncodedString()
        #expect(throws: OwnTracksDecryptionError.tooShort(count)) {
            _ = try OwnTracksEncryption.open(data, key: try OwnTracksKey(secret: "k"))
        }
    }

    /// libsodium is loaded at run time (issue 37, item 1): the system's opens, a missing file or a
    /// library that is not libsodium is refused with every name tried and what to install.
    @Test func libsodiumIsLoadedAtRunTimeAndItsAbsenceSaysWhatToInstall() throws {
        let system = try SecretBox.system.get()
        #expect(system.randomBytes(24) != system.randomBytes(24))
        let missing = SecretBox.load(["/nonexistent/libsodium.so.23", "libz.so.1"])
        guard case .failure(let why) = missing else {
            Issue.record("a missing library and zlib loaded as libsodium")
            return
        }
        #expect(why.tried == ["/nonexistent/libsodium.so.23", "libz.so.1"])
        #expect(why.errors.count == 2 && why.errors[1].contains("not libsodium"), "\(why.errors)")
        #expect(why.description.contains("apt-get install libsodium23"))
        let vector = OwnTracksVectors.all[0]
        #expect(throws: OwnTracksDecryptionError.unavailable(why)) {
            _ = try OwnTracksEncryption.open(
                try Self.data(of: vector), key: try OwnTracksKey(secret: vector.secret), library: missing)
        }
        #expect(throws: why) {
            _ = try OwnTracksEncryption.seal([1], key: try OwnTracksKey(secret: "k"), library: missing)
        }
    }

    @Test func theKeyIsTheSecretsFirst32BytesPaddedWithZeros() throws {
        #expect(try OwnTracksKey(secret: "abc").bytes == Array("abc".utf8) + Array(repeating: 0, count: 29))
        let long = String(repeating: "z", count: 40)
        #expect(try OwnTracksKey(secret: long).bytes == Array(repeating: UInt8(ascii: "z"), count: 32))
        #expect(OwnTracksKey.isCut(long) && !OwnTracksKey.isCut("abc"))
        // 31 ASCII bytes and a two-byte character: the 32nd byte is inside it.
        #expect(throws: OwnTracksKeyError.splitCharacter) {
            _ = try OwnTracksKey(secret: String(repeating: "a", count: 31) + "é")
        }
        // 30 and then the character: it ends on byte 32, whole.
        #expect(try OwnTracksKey(secret: String(repeating: "a", count: 30) + "é").bytes.count == 32)
        #expect(throws: OwnTracksKeyError.empty) { _ = try OwnTracksKey(secret: "") }
        #expect(OwnTracksKey(bytes: [1, 2, 3]) == nil)
    }

    @Test func aKeyNeverShowsItself() throws {
        let key = try OwnTracksKey(secret: "hunter2")
        #expect(!"\(key)".contains("hunter2") && !String(reflecting: key).contains("hunter2"))
        #expect(!"\(key)".contains("104"))  // not the bytes either
    }
}

import BackgroundCore
import Foundation
import NIOCore
import Testing

@testable import TrackServer

@Suite("Token hashing and timestamp parsing")
struct SupportTests {
    /// Tokens are stored as the SHA-256 of their UTF-8 bytes in lowercase hex (swift-crypto's):
    /// the FIPS 180-4 vectors through `Tokens.hash`, so a stored hash never changes with the library.
    @Test func tokenHashesAreTheFIPSVectors() {
        #expect(Tokens.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Tokens.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Tokens.hash(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// An import's body is hashed as it streams (``BodyDigest``) and its digest read midway (the
    /// prefix a resume checks): fed in pieces of any size, finalized between them, it is the digest
    /// of the whole, the known one for lengths either side of the padding's block edges.
    @Test func aBodyHashedInPiecesIsTheDigestOfTheWhole() {
        let message = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for size in [1, 3, 55, 56, 63, 64, 65, 127, 128, 129, 999, 1_000] {
            var body = BodyDigest(expecting: nil)
            var rest = message[...]
            while !rest.isEmpty {
                body.add(ByteBuffer(bytes: rest.prefix(size)))
                _ = body.prefix
                rest = rest.dropFirst(size)
            }
            #expect(
                body.prefix == "1000 5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179",
                "pieces of \(size)")
        }
        // From Python's hashlib.
        let known = [
            55: "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b",
            56: "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63",
            63: "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076",
            64: "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd",
            65: "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0",
            119: "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe",
            120: "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656",
            1_000: "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179",
        ]
        for (count, hex) in known {
            var body = BodyDigest(expecting: nil)
            body.add(ByteBuffer(bytes: message.prefix(count)))
            #expect(body.prefix == "\(count) \(hex)", "\(count) bytes")
        }
    }

    /// A head-named upload's row: SHA-256 of the declared length, a zero byte and the head.
    @Test func anUploadIsNamedByTheDigestOfItsLengthAndHead() {
        var head = UploadHead()
        _ = head.add(ByteBuffer(bytes: Array("  bc".utf8)))
        // SHA-256 of "3\0bc" (Python's hashlib).
        #expect(
            head.fingerprint(length: "3")
                == "upload 950653e7abf35bbfd7ebf7f0ea008df6a13855e0aab0ee3903e7ed4d2af59345")
    }

    @Test func timestampsInEveryForm() {
        let expected = Instant(milliseconds: 1_732_242_600_000)
        #expect(TimestampParser.instant(from: "1732242600") == expected)
        #expect(TimestampParser.instant(from: "1732242600000") == expected)
        #expect(TimestampParser.instant(from: "2024-11-22T02:30:00Z") == expected)
        #expect(TimestampParser.instant(from: "2024-11-22 02:30:00") == expected)
        #expect(TimestampParser.instant(from: "2024-11-22T10:30:00+08:00") == expected)
        #expect(TimestampParser.instant(from: "2024-11-22T02:30:00.250Z")?.milliseconds == 1_732_242_600_250)
        #expect(TimestampParser.instant(from: "2024-13-45 99:99:99") == nil)
        #expect(TimestampParser.instant(from: "NaN") == nil)
    }

    /// The byte-wise number test takes what the `Character` one took: the same instants, the same
    /// refusals, padded or not, for numbers, dates, other scripts' digits and near-misses.
    @Test func theByteWiseNumberTestReadsWhatTheCharacterTestRead() {
        func reference(_ text: String) -> Instant? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Double(trimmed), trimmed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
                return TimestampParser.instant(fromNumber: number)
            }
            return TimestampParser.iso8601(trimmed)
        }
        let cores = [
            "1732242600", "1732242600000", "1732242600.5", "-5", "0", "", "-", ".", "1.2.3", "1e9", "1E9", "inf",
            "nan", "0x10", "+1732242600", "١٧٣٢٢٤٢٦٠٠", "１７３２２４２６００", "½", "2024-11-22T02:30:00Z",
            "2024-11-22 02:30:00", "12:00", "1732242600\u{0}",
        ]
        let pads = ["", " ", "\t", "\u{00A0}", "\n", "\u{3000}"]
        var checked = 0
        for core in cores {
            for left in pads {
                for right in pads {
                    let text = left + core + right
                    #expect(TimestampParser.instant(from: text) == reference(text), "\(text.debugDescription)")
                    checked += 1
                }
            }
        }
        #expect(checked == cores.count * pads.count * pads.count)
        #expect(TimestampParser.instant(from: " 1732242600\t") == Instant(milliseconds: 1_732_242_600_000))
    }
}

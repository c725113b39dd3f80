import BackgroundCore
import Foundation
import Testing

@testable import TrackServer

@Suite("Token hashing and timestamp parsing")
struct SupportTests {
    @Test func sha256MatchesFIPSVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
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

import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import TrackServer

/// The native route's answer written directly against `JSONEncoder` as `Response.json` sets it
/// up (what it replaced): the same bytes, or `nil` and the encoder answers.
@Suite("BatchResponse.plainJSON agrees with JSONEncoder")
struct BatchResponseJSONTests {
    static func foundation(_ answer: BatchResponse) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(answer))
    }

    @Test func aPhonesAnswerIsWrittenDirectly() throws {
        let ids = (0..<500).map {
            UUID(uuid: (UInt8($0 % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)).wireString
        }
        for answer in [
            BatchResponse(), BatchResponse(accepted: ids), BatchResponse(duplicates: ids),
            BatchResponse(
                accepted: Array(ids.prefix(3)), duplicates: [ids[4]],
                rejected: [.init(id: ids[5], reason: "sample 5: field \"lat\" latitude 91.2 is outside -90...90")]),
        ] {
            let plain = answer.plainJSON()
            #expect(plain != nil || !answer.rejected.isEmpty)
            if let plain { #expect(plain == (try Self.foundation(answer))) }
        }
    }

    @Test func seededAnswersAgree() throws {
        let alphabet = Array("abcXYZ019-_ /.:…é\"\\\u{0}\u{1}\n\t\u{7F}{}[],".unicodeScalars)
        var written = 0
        for seed in UInt64(1)...5_000 {
            var random = SeededRandom(seed: seed)
            func text() -> String {
                let count = Int.random(in: 0...12, using: &random)
                let plain = Bool.random(using: &random)
                return String(
                    String.UnicodeScalarView(
                        (0..<count).map { _ in
                            plain
                                ? alphabet[Int.random(in: 0..<10, using: &random)]
                                : alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                        }))
            }
            func texts() -> [String] { (0..<Int.random(in: 0...4, using: &random)).map { _ in text() } }
            var answer = BatchResponse(
                accepted: texts(), duplicates: texts(),
                rejected: (0..<Int.random(in: 0...2, using: &random)).map { _ in .init(id: text(), reason: text()) })
            if seed % 7 == 0 { answer.result = text() }
            guard let plain = answer.plainJSON() else { continue }
            written += 1
            let expected = try Self.foundation(answer)
            guard plain == expected else {
                Issue.record(
                    "seed \(seed): wrote \(String(decoding: plain, as: UTF8.self)), JSONEncoder \(String(decoding: expected, as: UTF8.self))"
                )
                return
            }
        }
        #expect(written > 500)
    }
}

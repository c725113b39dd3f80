import BackgroundCore
import Foundation
import LocationLogTesting
import Testing

@testable import TrackServer

/// The ingest JSON parser against Foundation's `JSONDecoder` (what it replaced): the same value
/// for every document both accept, a refusal for every document Foundation refuses.
@Suite("JSONParser agrees with Foundation's JSONDecoder")
struct JSONParserTests {
    static let documents = [
        Fixtures.nativeBatch, Fixtures.overland, Fixtures.ownTracksLocation, Fixtures.ownTracksTransition,
        #"{"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00","n":[-0,0.5,1e3,-2.5E-3,12345678901234567890]}"#,
        #"[true,false,null,{},[],"",{"a":{"b":[1,{"c":null}]}}]"#, " 42 ", "\"alone\"", "[1,]", "{\"a\":1,}", "ö",
        #"{"ü":"ß"}"#,
    ]

    static func foundation(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    @Test(arguments: documents)
    func theDocumentsParseAsFoundationParsesThem(_ document: String) throws {
        let bytes = Array(document.utf8)
        let expected = Self.foundation(bytes)
        let parsed = try? JSONParser.parse(bytes)
        #expect(parsed == expected)
    }

    /// Not among the mutated documents: Foundation does not check the UTF-8 of names inside a
    /// repeated member's value, which it drops, where the parser refuses invalid UTF-8 anywhere.
    @Test func aRepeatedNameKeepsItsFirstValueAsInFoundation() throws {
        let bytes = Array(#"{"a":1,"b":{"c":2},"a":3,"b":4,"a":{"x":5,"x":6},"c":{"d":7,"d":8}}"#.utf8)
        let parsed = try JSONParser.parse(bytes)
        #expect(parsed == Self.foundation(bytes))
        #expect(
            parsed
                == .object(["a": .number(1), "b": .object(["c": .number(2)]), "c": .object(["d": .number(7)])]))
    }

    @Test(arguments: [
        "", "{", "01", "+1", ".5", "1.", "1e", "-", "tru", "nul", "[1 2]", "{\"a\" 1}",
        "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"", "\"a\u{01}b\"", "1e400", "{} {}", "NaN", "'a'",
    ])
    func malformedDocumentsAreRefused(_ document: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(document.utf8)) }
        #expect(Self.foundation(Array(document.utf8)) == nil)
    }

    /// 20,000 seeded mutations of the documents above (bytes replaced, inserted or deleted): both
    /// parsers accept the same ones and read the same values, except that the parser refuses any
    /// NUL byte, which Foundation sometimes skips. The seed is in every message.
    @Test func seededMutationsAgree() {
        let alphabet = Array("{}[]\",:0123456789.eE+-tfnul \\/u\u{0}\n".utf8) + [0xC3, 0xA9, 0xFF]
        for seed in UInt64(1)...20_000 {
            var random = SeededRandom(seed: seed)
            var bytes = Array(Self.documents[Int.random(in: 0..<Self.documents.count, using: &random)].utf8)
            SeededMutation.mutate(&bytes, alphabet: alphabet, using: &random)
            // Foundation skips a NUL byte where the parser refuses it (a NUL is never JSON).
            let expected = bytes.contains(0) ? nil : Self.foundation(bytes)
            let parsed = try? JSONParser.parse(bytes)
            guard parsed == expected else {
                Issue.record(
                    "seed \(seed): parser \(parsed.map { "\($0)" } ?? "refused"), Foundation \(expected.map { "\($0)" } ?? "refused") for \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
                return
            }
        }
    }
}

/// The form decoder against Foundation's `removingPercentEncoding` (what it replaced): the same
/// text, or the same refusal.
@Suite("FormParameters.decode agrees with Foundation")
struct FormDecodeTests {
    static func foundation(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    @Test(arguments: [
        "", "plain", "a+b", "%41%42", "2024-11-22+02%3A30%3A00", "%e4%b8%ad", "%", "%4", "%G1", "%ff", "100%",
    ])
    func knownCases(_ text: String) {
        #expect(FormParameters.decode(Substring(text)) == Self.foundation(Substring(text)))
    }

    @Test func seededStringsAgree() {
        let alphabet = Array("%+aZ09fF.-_ =&gG".unicodeScalars) + ["é", "中"]
        for seed in UInt64(1)...20_000 {
            var random = SeededRandom(seed: seed)
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...12, using: &random)).map { _ in
                        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                    }))
            let decoded = FormParameters.decode(Substring(text))
            // Foundation is inconsistent on bytes that are not UTF-8: nil for "%ff", U+FFFD for
            // "é%a9". The decoder always refuses them (the route then answers or quarantines).
            var expected = Self.foundation(Substring(text))
            if expected?.contains("\u{FFFD}") == true { expected = nil }
            guard decoded == expected else {
                Issue.record(
                    "seed \(seed): \(text.debugDescription) decoded \(decoded.debugDescription), Foundation \(expected.debugDescription)"
                )
                return
            }
        }
    }
}

/// The form parser's byte split (ASCII texts) against its `Character` split (what it replaced).
@Suite("FormParameters.parse")
struct FormParseTests {
    @Test func aTraccarQueryReadsAsItsPairs() {
        let query = "id=ana&timestamp=1700000000&lat=52.5&lon=13.4&speed=2&bearing=90&altitude=30&accuracy=8&batt=80"
        let parsed = FormParameters.parse(query)
        #expect(parsed?["id"] == "ana")
        #expect(parsed?["timestamp"] == "1700000000")
        #expect(parsed?.count == 9)
        #expect(FormParameters.parse("a=1&&a=2&b&=x&c=d=e&") == ["a": "2", "b": "", "": "x", "c": "d=e"])
        #expect(FormParameters.parse("a=%zz") == nil)
        #expect(FormParameters.parse("t=2024-11-22+02%3A30%3A00") == ["t": "2024-11-22 02:30:00"])
    }

    /// 20,000 seeded texts over `&`, `=`, escapes, CR LF and a few non-ASCII scalars (a combining
    /// accent after `&` makes one `Character` of the two): the same pairs, or the same refusal.
    @Test func theByteSplitAgreesWithTheCharacterSplit() {
        let alphabet = Array("&=%+aZ09fF._ \r\n".unicodeScalars) + ["é", "\u{301}"]
        var nonASCII = 0
        for seed in UInt64(1)...20_000 {
            var random = SeededRandom(seed: seed)
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...16, using: &random)).map { _ in
                        let letters = seed % 4 == 0 ? alphabet.count : alphabet.count - 2
                        return alphabet[Int.random(in: 0..<letters, using: &random)]
                    }))
            let expected = FormParameters.parseCharacters(text)
            guard let parsed = FormParameters.parseASCII(text) else {
                // Not ASCII: `parse` splits by Character.
                nonASCII += 1
                #expect(FormParameters.parse(text) == expected)
                continue
            }
            guard parsed == expected else {
                Issue.record(
                    "seed \(seed): \(text.debugDescription) parsed \(parsed.debugDescription), by Character \(expected.debugDescription)"
                )
                return
            }
        }
        #expect(nonASCII > 1_000 && nonASCII < 5_000)
        // Not ASCII: `&` and a combining accent are one Character, so no split there.
        #expect(FormParameters.parse("a=1&\u{301}b=2") == ["a": "1&\u{301}b=2"])
    }
}

import BackgroundCore
import Foundation
import LocationLog
import LocationLogTesting
import Testing

@testable import TrackServer

/// The plain-batch scanner against Foundation's `JSONDecoder` (the typed path it sits in front
/// of): whatever it reads, `JSONDecoder` reads the same, doubles bit for bit and strings byte for
/// byte; and the native parser answers the same with the scanner as without it, on fixtures,
/// seeded batches and seeded mutations of them. The seed is in every message.
@Suite("NativeBatchScanner agrees with JSONDecoder")
struct NativeBatchScannerTests {
    /// What the route decoded with `JSONDecoder` before the scanner (its `TypedBatch`).
    struct Reference: Decodable {
        var batch: String?
        var device: String?
        var samples: [WireSample]
        var v: Int?
        var tz: String?
    }

    static func foundation(_ bytes: [UInt8]) -> Reference? {
        try? JSONDecoder().decode(Reference.self, from: Data(bytes))
    }

    /// Every value, doubles as bit patterns (so `-0` and `0` differ) and strings as UTF-8 bytes.
    static func fingerprint(batch: String?, device: String?, samples: [WireSample]) -> [String] {
        func text(_ value: String?) -> String { value.map { Array($0.utf8).description } ?? "nil" }
        func bits(_ value: Double?) -> String { value.map { String($0.bitPattern, radix: 16) } ?? "nil" }
        return [text(batch), text(device)]
            + samples.map { sample in
                [
                    text(sample.id), "\(sample.seq)", "\(sample.time.milliseconds)", bits(sample.latitude),
                    bits(sample.longitude),
                    bits(sample.accuracy), bits(sample.verticalAccuracy), bits(sample.altitude), bits(sample.speed),
                    bits(sample.course), bits(sample.battery),
                    sample.charging.map { "\($0)" } ?? "nil", text(sample.trigger), text(sample.state),
                ].joined(separator: " ")
            }
    }

    /// `nil` when the scanner declines; otherwise whether Foundation reads exactly the same.
    static func agreement(_ bytes: [UInt8]) -> Bool? {
        guard let scanned = NativeBatchScanner.scan(bytes) else { return nil }
        guard let expected = foundation(bytes) else { return false }
        return fingerprint(batch: scanned.batch, device: scanned.device, samples: scanned.samples)
            == fingerprint(batch: expected.batch, device: expected.device, samples: expected.samples)
            && scanned.version.map(Int.init) == expected.v && scanned.timeZone == expected.tz
    }

    /// Bodies a phone sends: the scanner must read them (else the route loses its fast path).
    static let plain = [
        Fixtures.nativeBatch, Fixtures.nativeWithBadSample, #"{"samples":[]}"#,
        #" {"device":null,"batch":null,"samples":[ ] } "#,
        "{\n\t\"samples\" : [ {\"lon\":-0.5,\"lat\":1E2,\"t\":0,\"seq\":-5,\"id\":\"\",\"acc\":null,\"alt\":null,"
            + "\"speed\":null,\"course\":null,\"battery\":null,\"charging\":null,\"trigger\":null,\"state\":null} ] }\r\n",
        #"{"samples":[{"id":"ü中😀","seq":0,"t":-1,"lat":12345678901234567890,"lon":0.1,"charging":true}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":31.200001000000001,"lon":1e22,"acc":1e23,"alt":9007199254740993}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":-2.5E-3,"lon":0.0e5,"acc":1.7976931348623157e308,"alt":2.2250738585072014e-308}]}"#,
        #"{"samples":[{"id":"a","seq":999999999999999999,"t":-999999999999999999,"lat":0,"lon":-0.0000000000000000000001}]}"#,
        // Version 3: the phone's zone (docs/protocol.md §Zones).
        #"{"batch":"b","device":"d","v":3,"tz":"America/Argentina/Buenos_Aires","samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4}]}"#,
        #"{"tz":null,"samples":[],"v":1}"#,
    ]

    @Test(arguments: plain)
    func plainBatchesAreReadAsFoundationReadsThem(_ document: String) {
        #expect(Self.agreement(Array(document.utf8)) == true)
    }

    /// Not the plain shape, or not JSON: the scanner declines and the route's general path answers.
    @Test(arguments: [
        "", "{", "[]", "{}", #"{"samples":null}"#, #"{"samples":[],}"#, #"{"samples":[1]}"#, #"{"samples":[]} x"#,
        #"{"samples":[],"samples":[]}"#, #"{"samples":[],"extra":1}"#, #"{"batch":"a\"b","samples":[]}"#,
        #"{"batch":1,"samples":[]}"#, #"{"sam\u0070les":[]}"#, "\u{FEFF}{\"samples\":[]}", #"{"samples":[{}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3}]}"#,
        #"{"samples":[{"id":"a","seq":1.5,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1e2,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":"1","t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":-0,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":01,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1234567890123456789,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":-0.0,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":1e400,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":1e-400,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":5e-324,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":1.,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":0e5,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":0E+5,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":.5,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":+1,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":null,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4,"charging":1}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4,"trigger":5}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4,"lat":5}]}"#,
        #"{"samples":[{"id":"a\u0001","seq":1,"t":2,"lat":3,"lon":4}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4,"charging":truex}]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":3,"lon":4},]}"#,
        #"{"samples":[{"id":"a","seq":1,"t":2,"lat":NaN,"lon":4}]}"#,
        #"{"tz":5,"samples":[]}"#, #"{"v":"3","samples":[]}"#, #"{"tz":"a","tz":"b","samples":[]}"#,
    ])
    func otherDocumentsAreLeftToTheGeneralPath(_ document: String) {
        #expect(NativeBatchScanner.scan(Array(document.utf8)) == nil)
    }

    @Test func memberNameConstantsArePackedNames() {
        typealias Key = NativeBatchScanner.Key
        let keys: KeyValuePairs<String, UInt64> = [
            "batch": Key.batch, "device": Key.device, "samples": Key.samples, "id": Key.id, "seq": Key.seq,
            "t": Key.t, "lat": Key.lat, "lon": Key.lon, "acc": Key.acc, "alt": Key.alt, "speed": Key.speed,
            "course": Key.course, "battery": Key.battery, "charging": Key.charging, "trigger": Key.trigger,
            "state": Key.state, "v": Key.v, "tz": Key.tz,
        ]
        for (name, value) in keys { #expect(Key.pack(name) == value, "\(name)") }
        #expect(Set(keys.map(\.value)).count == keys.count)
    }

    @Test func invalidUTF8AndControlCharactersAreLeftToTheGeneralPath() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x00], [0x1F]] {
            let body = Array(#"{"batch":""#.utf8) + bad + Array(#"","samples":[]}"#.utf8)
            #expect(NativeBatchScanner.scan(body) == nil, "bytes \(bad)")
        }
    }

    /// A seeded number in one of the textual forms clients and encoders write.
    static func numberText(_ random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            // Swift's shortest round-trip form of a coordinate-like double (what JSONEncoder writes).
            return "\(random.uniform(-180...180))"
        case 1:
            return "\(Double(bitPattern: random.next()).magnitude)"
        default:
            let digits = (0..<Int.random(in: 1...24, using: &random)).map { _ in
                String(Int.random(in: 0...9, using: &random))
            }.joined()
            var text = digits.drop { $0 == "0" }.isEmpty ? "0" : String(digits.drop { $0 == "0" })
            if Bool.random(using: &random) {
                let fraction = (0..<Int.random(in: 1...20, using: &random)).map { _ in
                    String(Int.random(in: 0...9, using: &random))
                }.joined()
                text += "." + fraction
            }
            if Bool.random(using: &random) {
                text += ["e", "E", "e+", "e-", "E-"].randomElement(using: &random) ?? "e"
                text += String(Int.random(in: 0...40, using: &random))
            }
            return (Bool.random(using: &random) ? "-" : "") + text
        }
    }

    /// A seeded plain batch of 1…4 samples with optional fields present, null or absent.
    static func batchText(_ random: inout SeededRandom) -> String {
        func optional(_ name: String, _ value: String) -> String? {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: "\"\(name)\":\(value)"
            case 1: "\"\(name)\":null"
            default: nil
            }
        }
        let samples = (0..<Int.random(in: 1...4, using: &random)).map { index in
            var fields = [
                "\"id\":\"\(UUID(uuid: (UInt8(index), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)).wireString)\"",
                "\"seq\":\(Int64.random(in: -1000...Int64(1e17), using: &random))",
                "\"t\":\(Int64.random(in: 946_684_800_000...1_900_000_000_000, using: &random))",
                "\"lat\":\(numberText(&random))", "\"lon\":\(numberText(&random))",
            ]
            let optionals: [String?] = [
                optional("acc", numberText(&random)), optional("alt", numberText(&random)),
                optional("speed", numberText(&random)), optional("course", numberText(&random)),
                optional("battery", numberText(&random)),
                optional("charging", Bool.random(using: &random) ? "true" : "false"),
                optional("trigger", "\"timer\""), optional("state", "\"background\""),
            ]
            fields += optionals.compactMap { $0 }
            fields.shuffle(using: &random)
            let space = [" ", "", "\n", "\t"].randomElement(using: &random) ?? ""
            return "{" + fields.joined(separator: "," + space) + "}"
        }
        return #"{"batch":"b","device":"iphone-42","samples":["# + samples.joined(separator: ", ") + "]}"
    }

    @Test func seededNumbersAndBatchesAgree() {
        var read = 0
        for seed in UInt64(1)...5_000 {
            var random = SeededRandom(seed: seed)
            let body = Array(Self.batchText(&random).utf8)
            guard let agrees = Self.agreement(body) else { continue }
            read += 1
            guard agrees else {
                Issue.record(
                    "seed \(seed): the scanner and Foundation differ on \(String(decoding: body, as: UTF8.self))")
                return
            }
        }
        // Most seeded numbers are in range and exact: the comparison is not vacuous.
        #expect(read > 1_000)
    }

    /// Seeded byte mutations of the bodies above: whatever the scanner reads, Foundation reads alike.
    @Test func seededMutationsAgree() {
        let alphabet = Array("{}[]\",:0123456789.eE+-tfnul \\/u\u{0}\n".utf8) + [0xC3, 0xA9, 0xFF]
        var read = 0
        for seed in UInt64(1)...20_000 {
            var random = SeededRandom(seed: seed)
            var bytes = Array(
                (Bool.random(using: &random)
                    ? Self.plain[Int.random(in: 0..<Self.plain.count, using: &random)] : Self.batchText(&random)).utf8)
            SeededMutation.mutate(&bytes, alphabet: alphabet, using: &random)
            guard let agrees = Self.agreement(bytes) else { continue }
            read += 1
            guard agrees else {
                let body = String(decoding: bytes, as: UTF8.self).debugDescription
                Issue.record("seed \(seed): the scanner read what Foundation reads otherwise or refuses: \(body)")
                return
            }
        }
        #expect(read > 1_000)
    }

    /// The route's parser with the scanner and without it (`JSONDecoder`, then field by field, as
    /// before): the same samples, rejections and reasons, or the same refusal.
    @Test func theParserAnswersTheSameWithAndWithoutTheScanner() {
        let parser = NativeBatchParser(rules: SampleRules(), maxSamples: 3)
        let now = Instant(milliseconds: 1_800_000_000_000)
        let alphabet = Array("{}[]\",:0123456789.eE+-tfnul \\/u\u{0}\n".utf8) + [0xC3, 0xA9, 0xFF]
        func outcome(_ bytes: [UInt8], scanning: Bool) -> String {
            do {
                let parsed = try parser.parse(bytes: bytes, device: "iphone-42", now: now, scanning: scanning)
                return "\(parsed.batch ?? "nil") \(parsed.samples) \(parsed.rejected.map { "\($0.id): \($0.reason)" })"
            } catch {
                return "refused \(error)"
            }
        }
        var accepted = 0
        for seed in UInt64(1)...6_000 {
            var random = SeededRandom(seed: seed)
            var bytes = Array(Self.batchText(&random).utf8)
            if seed % 3 != 0 { SeededMutation.mutate(&bytes, alphabet: alphabet, using: &random) }
            let scanned = outcome(bytes, scanning: true)
            let general = outcome(bytes, scanning: false)
            if !scanned.hasPrefix("refused") { accepted += 1 }
            guard scanned == general else {
                let body = String(decoding: bytes, as: UTF8.self).debugDescription
                Issue.record("seed \(seed): with the scanner \(scanned), without it \(general), for \(body)")
                return
            }
        }
        #expect(accepted > 1_000)
    }
}

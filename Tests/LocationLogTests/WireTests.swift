import BackgroundCore
import Foundation
import LocationLog
import Testing

@Suite struct WireTests {
    let sample = Sample(
        id: UUID(uuidString: "6F1C0000-0000-4000-8000-000000000001") ?? UUID(), seq: 1042,
        values: SampleValues(
            time: Instant(milliseconds: 1_732_240_000_123), latitude: 31.2304, longitude: 121.4737, accuracy: 12.5,
            altitude: 4, speed: 1.2, course: 90, battery: 0.83, charging: false), trigger: .timer, state: .background)

    @Test func requestMatchesProtocolFieldNames() throws {
        let request = BatchRequest(
            batch: UUID(uuidString: "6F1C0000-0000-4000-8000-0000000000AA") ?? UUID(), device: "iphone-42",
            samples: [sample])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(request), as: UTF8.self)
        #expect(json.contains(#""batch":"6f1c0000-0000-4000-8000-0000000000aa""#))
        #expect(json.contains(#""t":1732240000123"#))
        #expect(json.contains(#""id":"6f1c0000-0000-4000-8000-000000000001""#))
        #expect(json.contains(#""trigger":"timer""#))
        #expect(json.contains(#""state":"background""#))
        #expect(json.contains(#""charging":false"#))
        let decoded = try JSONDecoder().decode(BatchRequest.self, from: Data(json.utf8))
        #expect(try decoded.samples[0].sample() == sample)
    }

    @Test func unknownOptionalFieldsAreAbsentNotZero() throws {
        let bare = Sample(
            id: UUID(), seq: 1, values: SampleValues(time: Instant(milliseconds: 5), latitude: 1, longitude: 2))
        let json = String(decoding: try JSONEncoder().encode(WireSample(bare)), as: UTF8.self)
        for field in ["acc", "alt", "speed", "course", "battery", "charging"] {
            #expect(!json.contains("\"\(field)\""), "\(field) should be absent: \(json)")
        }
        let withNulls = #"{"id":"\#(bare.id.wireString)","seq":1,"t":5,"lat":1,"lon":2,"acc":null,"speed":null}"#
        let decoded = try JSONDecoder().decode(WireSample.self, from: Data(withNulls.utf8)).sample()
        #expect(decoded.accuracy == nil && decoded.speed == nil)
    }

    @Test(arguments: [
        (#"{"id":"x","seq":1,"t":5,"lat":1,"lon":2}"#, "id \"x\" is not a UUID"),
        (
            #"{"id":"6f1c0000-0000-4000-8000-000000000001","seq":1,"t":5,"lat":91.2,"lon":2}"#,
            "latitude 91.2 is outside -90…90"
        ),
        (#"{"id":"6f1c0000-0000-4000-8000-000000000001","seq":1,"t":5,"lat":0,"lon":0}"#, "0,0"),
        (
            #"{"id":"6f1c0000-0000-4000-8000-000000000001","seq":1,"t":5,"lat":1,"lon":2,"trigger":"bogus"}"#,
            "trigger \"bogus\" is not one of timer"
        ),
        (
            #"{"id":"6f1c0000-0000-4000-8000-000000000001","seq":1,"t":5,"lat":1,"lon":2,"battery":1.5}"#,
            "battery 1.5"
        ),
    ])
    func invalidSamplesAreRejectedWithAReason(json: String, reason: String) throws {
        let wire = try JSONDecoder().decode(WireSample.self, from: Data(json.utf8))
        #expect {
            try wire.sample()
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func responseDecodesAndMapsToAcknowledgement() throws {
        let id1 = UUID()
        let id2 = UUID()
        let id3 = UUID()
        let body = """
            {"result":"ok","accepted":["\(id1.wireString)"],"duplicates":["\(id2.uuidString)"],
             "rejected":[{"id":"\(id3.wireString)","reason":"latitude 91.2 is outside -90…90"}]}
            """
        let response = try JSONDecoder().decode(BatchResponse.self, from: Data(body.utf8))
        let ack = response.acknowledgement
        #expect(ack.stored == [id1, id2])
        #expect(ack.rejected == [id3: "latitude 91.2 is outside -90…90"])
        let minimal = try JSONDecoder().decode(BatchResponse.self, from: Data(#"{"result":"ok"}"#.utf8))
        #expect(minimal.accepted.isEmpty && minimal.rejected.isEmpty)
    }

    @Test func batchIDsDependOnlyOnTheSampleSet() {
        let ids = (0..<5).map { _ in UUID() }
        let id = BatchRequest.batchID(for: ids)
        #expect(BatchRequest.batchID(for: ids.reversed()) == id)
        #expect(BatchRequest.batchID(for: ids.dropLast()) != id)
        #expect(id.wireString.dropFirst(14).first == "8", "version 8 UUID: \(id)")
        #expect(BatchRequest.batchID(for: [UUID]()) != BatchRequest.batchID(for: [ids[0]]))
    }

    @Test func gzipRoundTripsAndRefusesBombs() throws {
        let text = Data(String(repeating: "{\"lat\":31.2304,\"lon\":121.4737}", count: 2000).utf8)
        let packed = try Gzip.compress(text)
        #expect(packed.count < text.count / 10)
        #expect(packed.prefix(2) == Data([0x1f, 0x8b]))
        #expect(try Gzip.decompress(packed) == text)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed, limit: 1000) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Data("not gzip".utf8)) }
    }

    /// Several gzip members are one body (RFC 1952 §2.2); anything else after a member is refused,
    /// never silently dropped with the samples it carried.
    @Test func gzipMembersAreAllReadAndTrailingBytesRefused() throws {
        let first = Data(#"{"batch":"b","device":"d","samples":["#.utf8)
        let second = Data(#"]}"#.utf8)
        let two = try Gzip.compress(first) + Gzip.compress(second)
        #expect(try Gzip.decompress(two) == first + second)
        let three = try Gzip.compress(first) + Gzip.compress(Data()) + Gzip.compress(second)
        #expect(try Gzip.decompress(three) == first + second)
        for trailing in [Data([0]), Data([1, 2, 3]), Data("garbage".utf8), Data([0x1f, 0x8b])] {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(try Gzip.compress(first) + trailing) }
        }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(two, limit: first.count) }
    }
}

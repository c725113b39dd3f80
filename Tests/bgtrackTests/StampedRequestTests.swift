import LoadGenerator
import Testing

/// The single-point load generator's request template: one number rewritten per request.
@Suite struct StampedRequestTests {
    static func request(_ seconds: Int64) -> [UInt8] {
        Array("POST /pub HTTP/1.1\r\nContent-Length: 22\r\n\r\n{\"tst\":\(seconds),\"lat\":10}".utf8)
    }

    @Test func eachRequestIsTheFullEncodingOfItsOwnTime() throws {
        let base: Int64 = 1_732_000_000
        let template = try #require(StampedRequest(Self.request(base), base: base))
        for offset: Int64 in [0, 1, 9, 10, 12_345, 267_999_999] {
            #expect(template.request(offset: offset) == Self.request(base + offset))
        }
    }

    @Test func anotherNumberOfDigitsFallsBackToAFullEncoding() throws {
        let template = try #require(StampedRequest(Self.request(9_999_999_999), base: 9_999_999_999))
        #expect(template.request(offset: 1) == nil, "eleven digits do not fit ten")
        let small = try #require(StampedRequest(Self.request(100), base: 100))
        #expect(small.request(offset: -1) == nil, "99 has fewer digits")
        #expect(small.request(offset: -101) == nil)
        #expect(small.request(offset: 899) == Self.request(999))
    }

    @Test func aNumberNotThereExactlyOnceIsRefused() {
        #expect(StampedRequest(Self.request(5), base: 7) == nil, "absent")
        #expect(StampedRequest(Array("a=12&b=12".utf8), base: 12) == nil, "twice")
        #expect(StampedRequest(Array("a=123".utf8), base: 12) == nil, "only inside a longer number")
        #expect(StampedRequest(Array("a=12".utf8), base: -12) == nil, "negative")
        #expect(StampedRequest([], base: 0) == nil)
        #expect(StampedRequest(Array("0".utf8), base: 0)?.request(offset: 5) == Array("5".utf8))
    }
}

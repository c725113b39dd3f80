import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrackServer

/// The day's map page leaves the points the clean-up rules flag out of the track and shows them
/// as excluded markers (issue 25 item 5), as the range map does.
@Suite("Day map page: excluded points")
struct DayPageExcludedTests {
    static let day: Int64 = 1_732_233_600_000  // 2024-11-22T00:00Z

    /// The page's embedded `MAP` data.
    static func mapData(_ page: String) throws -> [String: Any] {
        let open = #"<script type="application/json" id="map-data">"#
        let start = try #require(page.range(of: open)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as? [String: Any])
    }

    @Test func anInaccuratePointIsExcludedNotDrawn() async throws {
        let server = try await TestServer()
        let samples = (0..<11).map { index in
            let id = String(format: "00000000-0000-4000-8000-%012d", index + 1)
            // Sample 5: a cell-tower fix 20 km off, with an accuracy to match.
            let (latitude, longitude, accuracy) =
                index == 5 ? (31.4, 121.6, 20_000.0) : (31.2304, 121.4737 + Double(index) / 10_000, 8.0)
            return #"{"id":"\#(id)","seq":\#(index + 1),"t":\#(Self.day + Int64(index) * 120_000),"#
                + #""lat":\#(latitude),"lon":\#(longitude),"acc":\#(accuracy)}"#
        }
        let batch = #"{"batch":"b1","device":"iphone-42","samples":[\#(samples.joined(separator: ","))]}"#
        try await server.test { client in
            let response = try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: batch))
            #expect(response.status == .ok && !response.text.contains("reason"), "\(response.text)")
            let page = try await client.executeRequest(
                uri: "/devices/iphone-42?day=2024-11-22", method: .get, headers: .bearer(server.operatorToken),
                body: nil)
            #expect(page.status == .ok)
            let data = try Self.mapData(page.text)
            let segments = try #require(data["segments"] as? [[[Double]]])
            #expect(segments.joined().count == 10, "the flagged point is not drawn")
            #expect(!segments.joined().contains { $0[0] == 31.4 })
            #expect(segments.count == 1, "leaving it out cuts no gap into the track")
            let excluded = try #require(data["excluded"] as? [[Double]])
            #expect(excluded.count == 1 && excluded.first?[0] == 31.4 && excluded.first?[3] == 20_000)
            #expect(data["excludedRules"] as? [String] == ["inaccurate"])
        }
    }
}

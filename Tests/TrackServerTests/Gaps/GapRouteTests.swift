import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

/// Version 2 of `POST /v1/batches`: gap intervals ride with the samples (issue 24 item 3).
@Suite("Gap intervals: native batch version 2, read API and map")
struct GapRouteTests {
    static let sample = """
        { "id": "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01", "seq": 1, "t": 1732240000123, "lat": 31.2304, "lon": 121.4737 }
        """
    static let quitID = "7d0c8f4e-1b2a-4c3d-8e9f-0a1b2c3d4e01"
    static let outageID = "7d0c8f4e-1b2a-4c3d-8e9f-0a1b2c3d4e02"
    /// 10:30–11:00 and 13:00–15:00 UTC on 2024-11-21.
    static let quit = gapJSON(
        quitID, 1_732_185_000_000, 1_732_186_800_000, "force-quit", detail: "the user reopened it")
    /// As a phone before issue 37 sends it: "no network" as a gap; read as an upload delay.
    static let outage = gapJSON(outageID, 1_732_194_000_000, 1_732_201_200_000, "no-network")

    static func gapJSON(_ id: String, _ start: Int64, _ end: Int64, _ reason: String, detail: String? = nil) -> String {
        let detailField = detail.map { #", "detail": "\#($0)""# } ?? ""
        return #"{ "id": "\#(id)", "start": \#(start), "end": \#(end), "reason": "\#(reason)"\#(detailField) }"#
    }

    static func batch(_ gaps: [String], version: String = "2", samples: [String] = [sample]) -> String {
        #"{ "batch": "b1", "device": "iphone-42", "v": \#(version), "samples": [\#(samples.joined(separator: ","))], "gaps": [\#(gaps.joined(separator: ","))] }"#
    }

    func post(_ server: TestServer, _ body: String) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken), body: ByteBuffer(text: body))
        }
    }

    func decoded(_ response: TestResponse) throws -> BatchResponse {
        try JSONDecoder().decode(BatchResponse.self, from: Data(response.body.readableBytesView))
    }

    func storedGaps(_ server: TestServer) async throws -> [ReportedInterval] {
        try await server.store.reportedIntervals(
            device: "iphone-42", from: .epoch, to: TestServer.start + .seconds(86_400))
    }

    @Test func gapsAreStoredWithTheSamplesAndAcknowledgedByID() async throws {
        let server = try await TestServer()
        let response = try await post(server, Self.batch([Self.quit, Self.outage]))
        #expect(response.status == .ok)
        let answer = try decoded(response)
        #expect(answer.accepted.count == 1)
        #expect(answer.gapsStored == [Self.quitID, Self.outageID])
        #expect(answer.gapsRejected == [])
        #expect(answer.acknowledgement.gaps.count == 2)
        let stored = try await storedGaps(server)
        #expect(stored.map(\.reason) == ["force-quit", "no-network"])
        #expect(stored.first?.gap?.reason == .forceQuit)
        #expect(stored.last?.delay?.reason == .noNetwork)
        #expect(stored.first?.detail == "the user reopened it")
    }

    @Test func resendingStoresEachGapOnceAndAcknowledgesItAgain() async throws {
        let server = try await TestServer()
        _ = try await post(server, Self.batch([Self.quit]))
        let again = try decoded(try await post(server, Self.batch([Self.quit, Self.outage])))
        #expect(again.duplicates.count == 1)
        #expect(again.gapsStored == [Self.quitID, Self.outageID])
        #expect(try await storedGaps(server).count == 2)
    }

    @Test func aVersionOneBatchIsAnsweredExactlyAsBefore() async throws {
        let server = try await TestServer()
        let response = try await post(server, Fixtures.nativeBatch)
        #expect(response.status == .ok)
        #expect(!response.text.contains("gaps"))
        #expect(try decoded(response).gapsStored == nil)
        #expect(try await storedGaps(server).isEmpty)
    }

    @Test(arguments: [
        (gapJSON(quitID, 1_732_185_000_000, 1_732_186_800_000, "abducted-by-aliens"), "is not one of"),
        (gapJSON(quitID, 1_732_186_800_000, 1_732_185_000_000, "force-quit"), "before its start"),
        (gapJSON(quitID, 0, 1_732_185_000_000, "force-quit"), "between 2000 and 2200"),
        (gapJSON(quitID, 1_732_185_000_000, 32_503_680_000_000, "force-quit"), "between 2000 and 2200"),
        (gapJSON(quitID, 1_732_185_000_000, 1_732_444_800_000, "force-quit"), "more than a day after"),
        (
            gapJSON(
                quitID, 1_732_185_000_000, 1_732_186_800_000, "force-quit", detail: String(repeating: "x", count: 201)),
            "more than 200"
        ),
        (#"{ "id": "\#(quitID)", "start": 1.5, "end": 1732186800000, "reason": "force-quit" }"#, "whole epoch"),
        (#"{ "id": "\#(quitID)", "start": "soon", "end": 1732186800000, "reason": "force-quit" }"#, "must be a number"),
        (#"{ "id": "\#(quitID)", "start": 1732185000000, "end": 1732186800000 }"#, "\"reason\" is required"),
        (#"{ "id": "\#(quitID)", "start": 1732185000000, "end": 1732186800000, "reason": 7 }"#, "must be a string"),
    ])
    func aBadGapIsRefusedAloneAndTheSamplesAreStored(gap: String, message: String) async throws {
        let server = try await TestServer()
        let answer = try decoded(try await post(server, Self.batch([gap, Self.outage])))
        #expect(answer.accepted.count == 1)
        #expect(answer.gapsStored == [Self.outageID])
        #expect(answer.gapsRejected?.map(\.id) == [Self.quitID])
        let reason = answer.gapsRejected?.first?.reason ?? ""
        #expect(reason.contains(message), "\(reason)")
        // Refused is final: the phone lets it go (it would be refused again).
        #expect(answer.acknowledgement.gaps.count == 2)
        #expect(try await storedGaps(server).map(\.reason) == ["no-network"])
    }

    @Test(arguments: [
        (batch([quit, quit]), HTTPResponse.Status.badRequest, "repeats id"),
        (batch([#"{ "start": 1, "end": 2, "reason": "force-quit" }"#]), .badRequest, "has no string"),
        (batch([gapJSON("", 1_732_185_000_000, 1_732_186_800_000, "force-quit")]), .badRequest, "has an unusable"),
        (
            batch([gapJSON(String(repeating: "a", count: 65), 1_732_185_000_000, 1_732_186_800_000, "force-quit")]),
            .badRequest, "has an unusable"
        ),
        (batch([quit], version: "0"), .badRequest, "must be the batch version"),
        (batch([quit], version: "2.5"), .badRequest, "must be the batch version"),
        (batch([quit], version: "\"2\""), .badRequest, "must be a number, got string"),
        (#"{ "samples": [\#(sample)], "gaps": {"id": "x"} }"#, .badRequest, "must be an array of gap intervals"),
        (
            batch((0...1000).map { gapJSON("g\($0)", 1_732_185_000_000, 1_732_186_800_000, "suspended") }),
            .contentTooLarge, "more than the limit of 1000"
        ),
    ])
    func aBadGapListRefusesTheBatchAndStoresNothing(body: String, status: HTTPResponse.Status, message: String)
        async throws
    {
        let server = try await TestServer()
        let response = try await post(server, body)
        #expect(response.status == status)
        #expect(response.text.contains(message), "\(response.text)")
        #expect(try await server.sampleCount() == 0)
        #expect(try await storedGaps(server).isEmpty)
    }

    @Test func aThousandGapsWithLongDetailsAreKept() async throws {
        let server = try await TestServer()
        let detail = String(repeating: "ü", count: 200)
        let gaps = (0..<1000).map {
            Self.gapJSON(
                UUID().uuidString.lowercased(), 1_732_185_000_000 + Int64($0), 1_732_185_000_000 + Int64($0) + 1,
                "suspended", detail: detail)
        }
        let answer = try decoded(try await post(server, Self.batch(gaps)))
        #expect(answer.gapsStored?.count == 1000)
        #expect(try await storedGaps(server).count == 1000)
    }

    @Test func theGapsEndpointAndTheMapPageSayEachReason() async throws {
        let server = try await TestServer()
        _ = try await post(server, Self.batch([Self.quit, Self.outage]))
        let (json, page, script) = try await server.test { client in
            let json = try await client.executeRequest(
                uri: "/v1/devices/iphone-42/gaps?from=2024-11-21T00:00:00Z&to=2024-11-22T00:00:00Z", method: .get,
                headers: .bearer(server.operatorToken), body: nil)
            let page = try await client.executeRequest(
                uri: "/devices/iphone-42?day=2024-11-21", method: .get, headers: .bearer(server.operatorToken),
                body: nil)
            let script = try await client.executeRequest(
                uri: "/static/bgtrack/map.js", method: .get, headers: [:], body: nil)
            return (json, page, script)
        }
        #expect(json.status == .ok)
        let body = try #require(json.json as? [String: Any])
        let gaps = try #require(body["gaps"] as? [[String: Any]])
        #expect(gaps.map { $0["reason"] as? String } == ["force-quit"])
        #expect(
            gaps.first?["label"] as? String == "10:30–11:00: no samples, the app was force-quit; the user reopened it")
        #expect(gaps.first?["no_samples"] as? Bool == true)
        // Issue 37 item 3: an old phone's "no network" is an upload delay, listed apart.
        let delays = try #require(body["delays"] as? [[String: Any]])
        #expect(delays.map { $0["reason"] as? String } == ["no-network"])
        #expect(delays.first?["label"] as? String == "13:00–15:00: uploads waited, no network")
        #expect(delays.first?["no_samples"] == nil)
        #expect(page.text.contains("10:30–11:00: no samples, the app was force-quit; the user reopened it"))
        #expect(page.text.contains("13:00–15:00: uploads waited, no network"))
        #expect(script.text.contains("Uploads that waited") && script.text.contains("MAP.delays"))
        // Still no inline script: the label travels as JSON data, the code is served.
        #expect(!page.text.contains("gapText("))
        #expect(script.text.contains("function gapText("))
    }

    /// Issue 37 item 3: every reason a phone sends is stored, sampling reasons as gaps (with
    /// "no-fix" for no fix to be had) and upload reasons as delays; none of them crosses over.
    @Test func everyReasonIsStoredAsItsKind() async throws {
        let server = try await TestServer()
        let reasons = ReportedInterval.allReasons
        let gaps = reasons.enumerated().map { index, reason in
            Self.gapJSON(
                "7d0c8f4e-1b2a-4c3d-8e9f-0a1b2c3d5\(String(format: "%03d", index))",
                1_732_185_000_000 + Int64(index) * 60_000, 1_732_185_000_000 + Int64(index) * 60_000 + 30_000, reason)
        }
        let answer = try decoded(try await post(server, Self.batch(gaps)))
        #expect(answer.gapsStored?.count == reasons.count && answer.gapsRejected == [])
        let stored = try await storedGaps(server)
        #expect(stored.compactMap(\.gap).map(\.reason.rawValue) == GapReason.allCases.map(\.rawValue))
        #expect(stored.compactMap(\.delay).map(\.reason) == UploadDelayReason.allCases)
        #expect(GapReason(rawValue: "no-network") == nil && GapReason(rawValue: "no-fix") == .noFix)
        #expect(Set(GapReason.allCases.map(\.rawValue)).isDisjoint(with: UploadDelayReason.allCases.map(\.rawValue)))
    }

    @Test func readingGapsNeedsARightToTheDevice() async throws {
        let server = try await TestServer()
        let (other, missing, none) = try await server.test { client in
            (
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/gaps", method: .get, headers: .bearer(server.otherToken), body: nil),
                try await client.executeRequest(
                    uri: "/v1/devices/ghost/gaps", method: .get, headers: .bearer(server.operatorToken), body: nil),
                try await client.executeRequest(
                    uri: "/v1/devices/iphone-42/gaps?from=yesterday", method: .get,
                    headers: .bearer(server.operatorToken), body: nil)
            )
        }
        #expect(other.status == .forbidden)
        #expect(missing.status == .notFound)
        #expect(none.status == .badRequest)
    }
}

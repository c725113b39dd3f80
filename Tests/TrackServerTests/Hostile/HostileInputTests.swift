import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import Testing
import TrackServer

@Suite("Hostile input across the ingest routes")
struct HostileInputTests {
    static let generated = 10_000

    func send(_ request: HostileRequest, _ server: TestServer, _ client: any TestClientProtocol) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if request.gzip { headers[.contentEncoding] = "gzip" }
        let uri: String
        switch request.route {
        case .native:
            uri = "/v1/batches"
            headers[.authorization] = "Bearer \(server.phoneToken)"
        case .overland:
            uri = "/ingest/overland"
            headers[.authorization] = "Bearer \(server.phoneToken)"
        case .owntracks:
            uri = "/ingest/owntracks"
            headers[.authorization] = HTTPFields.basic(user: "iphone-42", password: server.phoneToken)[.authorization]
        case .osmandJSON:
            uri = "/ingest/osmand?token=\(server.phoneToken)"
        case .osmandQuery:
            return try await client.executeRequest(
                uri: "/ingest/osmand?\(request.query)", method: .get, headers: [:], body: nil)
        }
        return try await client.executeRequest(
            uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: request.body))
    }

    @Test func tenThousandGeneratedBodiesNo5xxAndRefusedBatchesWriteNothing() async throws {
        let server = try await TestServer()
        var generator = HostileBodies(random: SeededGenerator(state: 20_241_122))
        let requests = (0..<Self.generated).map { _ in generator.next() }
        let report = try await server.test { client in
            var statuses: [Int: Int] = [:]
            var kinds: [String: Int] = [:]
            var violations: [String] = []
            var before = try await server.sampleCount()
            for (index, request) in requests.enumerated() {
                let response = try await send(request, server, client)
                let after = try await server.sampleCount()
                statuses[response.status.code, default: 0] += 1
                kinds[request.kind, default: 0] += 1
                if response.status.code >= 500 {
                    violations.append("#\(index) \(request.route) \(request.kind): \(response.status.code)")
                }
                if !(200..<300).contains(response.status.code), after != before {
                    violations.append("#\(index) \(request.route) \(request.kind): refused but wrote \(after - before)")
                }
                if request.route == .native, response.status == .ok,
                    let decoded = try? JSONDecoder().decode(
                        BatchResponse.self, from: Data(response.body.readableBytesView)),
                    decoded.accepted.count != after - before
                {
                    violations.append(
                        "#\(index) native: acknowledged \(decoded.accepted.count), wrote \(after - before)")
                }
                before = after
            }
            return (statuses, kinds, violations)
        }
        print(
            "hostile: \(Self.generated) generated bodies; statuses \(report.0.sorted { $0.key < $1.key }); kinds \(report.1.sorted { $0.key < $1.key })"
        )
        #expect(report.2.isEmpty, "\(report.2.prefix(20))")
        #expect(report.0.keys.allSatisfy { $0 < 500 })
    }

    @Test func fiftyMegabyteBodiesAndGzipBombsAre413AndWriteNothing() async throws {
        let server = try await TestServer()
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: 50 << 20)
        // 256 MiB of zeros: the inflate cap (16 MiB) stops it long before memory does.
        let bomb = try Gzip.compress(Data(count: 256 << 20), level: 9)
        let codes = try await server.test { client in
            var codes: [String: Int] = [:]
            for route in [HostileRequest.Route.native, .overland, .owntracks, .osmandJSON] {
                let big = HostileRequest(route: route, kind: "50MB", body: huge)
                codes["\(route) 50MB"] = try await send(big, server, client).status.code
                let zipped = HostileRequest(route: route, kind: "bomb", body: Array(bomb), gzip: true)
                codes["\(route) bomb"] = try await send(zipped, server, client).status.code
            }
            return codes
        }
        print(
            "hostile: 50 MB bodies and a \(bomb.count)-byte gzip bomb (256 MiB inflated): \(codes.sorted { $0.key < $1.key })"
        )
        #expect(codes.values.allSatisfy { $0 == 413 })
        #expect(try await server.sampleCount() == 0)
    }

    @Test func serverStillWorksAfterTheAbuse() async throws {
        let server = try await TestServer()
        var generator = HostileBodies(random: SeededGenerator(state: 7))
        let requests = (0..<200).map { _ in generator.next() }
        let status = try await server.test { client in
            for request in requests { _ = try await send(request, server, client) }
            return try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch)
            ).status
        }
        #expect(status == .ok)
    }
}

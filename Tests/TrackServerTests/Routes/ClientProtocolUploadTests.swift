import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinuxDevice
import LocationLog
import LocationLogTesting
import Synchronization
import Testing
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The phone uploading with Overland, OwnTracks and OsmAnd / Traccar, over real HTTP into our own
/// server's routes for those clients: the same loss checks as the native path.
@Suite("Phone uploads with other clients' protocols")
struct ClientProtocolUploadTests {
    static let protocols: [UploadProtocol] = [.overland, .owntracks, .traccar]

    static func phone(samples count: Int, spacing: Duration = .seconds(9)) throws -> LocationStore {
        let phone = try LocationStore.inMemory()
        var time = TestServer.start - .seconds(4 * 3600)
        for index in 0..<count {
            let fix = LocationFix(
                timestamp: time, latitude: 31.2304 + Double(index) * 1e-5, longitude: 121.4737,
                horizontalAccuracy: 8, altitude: 4, speed: 1.5, course: 90)
            try phone.append(fix, trigger: .timer, state: .background, power: .init(battery: 0.8, charging: true))
            time += spacing
        }
        return phone
    }

    /// A 1,200-sample backlog arrives once per sample and leaves the phone only when acknowledged.
    @Test(arguments: protocols)
    func aBacklogArrivesOnce(uploadProtocol: UploadProtocol) async throws {
        let server = try await TestServer()
        let phone = try Self.phone(samples: 1_200)
        let clock = ManualTime(TestServer.start)
        let (first, second) = try await server.liveApp.testLive { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let transport = ClientProtocolTransport(
                protocol: uploadProtocol, server: base, device: "iphone-42", token: server.phoneToken)
            let engine = try SyncEngine(
                store: phone, transport: transport, device: "iphone-42", seed: 3, now: { clock.now })
            let first = try await engine.wake()
            clock.advance(by: .seconds(1800))
            return (first, try await engine.wake())
        }
        #expect(first.deleted + second.deleted == 1_200)
        #expect(try phone.pendingCount() == 0)
        #expect(try await server.sampleCount() == 1_200, "every sample once")
        let stored = try await server.store.samples(
            device: "iphone-42", from: TestServer.start - .seconds(5 * 3600), to: TestServer.start)
        // Units came back as they left: 1.5 m/s through km/h (OwnTracks, whole numbers) or knots.
        let speeds = Set(stored.compactMap(\.speed).map { ($0 * 10).rounded() / 10 })
        #expect(speeds == [uploadProtocol == .owntracks ? 1.4 : 1.5], "\(speeds)")
        #expect(stored.allSatisfy { $0.battery == 0.8 })
    }

    /// A lost answer makes the phone send again; the server stores each point once.
    @Test(arguments: protocols)
    func aResentBatchIsStoredOnce(uploadProtocol: UploadProtocol) async throws {
        let server = try await TestServer()
        let phone = try Self.phone(samples: 10)
        let batch = try phone.oldestPending(limit: 10)
        let request = BatchRequest(batch: UUID(), device: "iphone-42", samples: batch)
        let (first, resend, revoked) = try await server.liveApp.testLive { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let transport = ClientProtocolTransport(
                protocol: uploadProtocol, server: base, device: "iphone-42", token: server.phoneToken)
            let first = await transport.send(request)  // its answer is "lost"
            let second = await transport.send(request)
            _ = try await server.store.revokeDevice(named: "iphone-42", at: server.clock.now)
            return (first, second, await transport.send(request))
        }
        #expect(first == .acknowledged(BatchAcknowledgement(stored: Set(batch.map(\.id)))))
        #expect(resend == first)
        #expect(try await server.sampleCount() == 10)
        guard case .unauthorized(let status, _) = revoked else {
            Issue.record("a revoked token must hold uploads, got \(revoked)")
            return
        }
        #expect([401, 403].contains(status))
    }

    /// 5xx, a closed port and a server that fails half-way: nothing unacknowledged leaves the phone.
    @Test(arguments: protocols)
    func failuresDeleteNothingUnacknowledged(uploadProtocol: UploadProtocol) async throws {
        let answered = Mutex(0)
        let router = Router()
        // Takes three requests, then answers 503: a per-point batch is acknowledged in part.
        router.post("/**") { _, _ -> Response in
            let count = answered.withLock { value -> Int in
                value += 1
                return value
            }
            guard count <= 3 else { throw HTTPError(.serviceUnavailable, message: "down for maintenance") }
            let body = uploadProtocol == .overland ? "{\"result\":\"ok\"}" : "[]"
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let phone = try Self.phone(samples: 8)
        let batch = try phone.oldestPending(limit: 8)
        let request = BatchRequest(batch: UUID(), device: "iphone-42", samples: batch)
        let (firstTry, failing) = try await app.testLive { client in
            let port = try #require(client.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)/any"))
            let transport = ClientProtocolTransport(
                protocol: uploadProtocol, server: base, device: "iphone-42", token: "t")
            return (await transport.send(request), await transport.send(request))
        }
        let closed = await ClientProtocolTransport(
            protocol: uploadProtocol, server: try #require(URL(string: "http://127.0.0.1:9/x")), device: "d",
            token: "t", timeout: .seconds(5)
        ).send(request)
        switch uploadProtocol {
        case .overland:
            #expect(firstTry == .acknowledged(BatchAcknowledgement(stored: Set(batch.map(\.id)))))
            #expect(failing == .acknowledged(BatchAcknowledgement(stored: Set(batch.map(\.id)))))
        default:
            // Three points answered, then 503: exactly those three are acknowledged.
            #expect(firstTry == .acknowledged(BatchAcknowledgement(stored: Set(batch.prefix(3).map(\.id)))))
            guard case .serverError(503, _) = failing else {
                Issue.record("after the server fails, a batch with no answered point is a 503, got \(failing)")
                return
            }
        }
        guard case .networkError = closed else {
            Issue.record("a closed port is a network error, got \(closed)")
            return
        }
    }

    @Test func bytesPerPointOfEachProtocol() throws {
        let phone = try Self.phone(samples: 1_000, spacing: .seconds(120))
        let samples = try phone.oldestPending(limit: 1_000)
        let native = try JSONEncoder().encode(BatchRequest(batch: UUID(), device: "iphone-42", samples: samples))
        let overland = ClientProtocolTransport.overlandBody(samples, device: "iphone-42")
        let ownTracks = samples.map { ClientProtocolTransport.ownTracksBody($0).count }.reduce(0, +)
        let traccar = samples.map { sample in
            var components = URLComponents()
            components.queryItems = ClientProtocolTransport.traccarQuery(sample, device: "iphone-42", token: "bgd_x")
            return components.percentEncodedQuery?.utf8.count ?? 0
        }.reduce(0, +)
        let perPoint = [
            "native": native.count, "overland": overland.count, "owntracks": ownTracks, "traccar": traccar,
        ].mapValues { Double($0) / 1_000 }
        print("bytes per point (body or query, before HTTP headers):", perPoint.sorted { $0.key < $1.key })
        let overlandJSON = try #require(try JSONSerialization.jsonObject(with: overland) as? [String: Any])
        #expect((overlandJSON["locations"] as? [Any])?.count == 1_000)
        #expect(perPoint.values.allSatisfy { $0 > 50 && $0 < 600 })
    }

    @Test func endpointsFollowTheServerURL() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080"))
        #expect(UploadProtocol.overland.endpoint(for: base).absoluteString == "http://127.0.0.1:8080/ingest/overland")
        #expect(UploadProtocol.traccar.endpoint(for: base).absoluteString == "http://127.0.0.1:8080/ingest/osmand")
        let recorder = try #require(URL(string: "https://recorder.example/pub"))
        #expect(UploadProtocol.owntracks.endpoint(for: recorder) == recorder)
        #expect(
            UploadProtocol.native.endpoint(for: recorder).absoluteString == "https://recorder.example/pub/v1/batches")
    }
}

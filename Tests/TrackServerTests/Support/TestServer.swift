import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLog
import LocationLogTesting
import Logging
import NIOCore
import TrackServer

extension ManualTime {
    /// The server's clock reading this test clock.
    var serverClock: ServerClock { ServerClock { self.now } }
}

/// An in-memory server with two devices and an operator, and helpers to call its router.
struct TestServer {
    /// 2024-11-22T03:06:40Z, the day of the fixtures.
    static let start = Instant(milliseconds: 1_732_244_800_000)

    let store: SQLiteTrackStore
    let clock: ManualTime
    let environment: TrackServerEnvironment
    var phoneToken: String { Self.phoneToken }
    var otherToken: String { Self.otherToken }
    var operatorToken: String { Self.operatorToken }
    static let phoneToken = "bgd_phone-token"
    static let otherToken = "bgd_other-token"
    static let operatorToken = "bgo_operator-token"

    /// A server on a private in-memory store, or, with `file`, on a database file that was set up
    /// (devices and operator added unless it has them), closed and opened again, as a server that
    /// has been running.
    /// A `nil` durability opens the file with the shipped default. With `gate`, the routes see the
    /// store through a ``GatedStore`` (commits wait at the gate); `store` stays the SQLite store.
    init(
        file: (path: String, durability: Durability?)? = nil, logger: Logger? = nil,
        gate: (gate: Gate, log: EventLog)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws {
        let clock = ManualTime(Self.start)
        let open = { (path: String, durability: Durability?) throws -> SQLiteTrackStore in
            try durability.map { try SQLiteTrackStore(path: path, durability: $0) } ?? SQLiteTrackStore(path: path)
        }
        var store = try file.map { try open($0.path, $0.durability) } ?? SQLiteTrackStore.inMemory()
        if try await store.device(named: "iphone-42") == nil {
            _ = try await store.addDevice(name: "iphone-42", tokenHash: Tokens.hash(Self.phoneToken), at: clock.now)
            _ = try await store.addDevice(name: "other", tokenHash: Tokens.hash(Self.otherToken), at: clock.now)
            try await store.addOperator(name: "ops", tokenHash: Tokens.hash(Self.operatorToken), at: clock.now)
        }
        if let file {
            try store.close()
            store = try open(file.path, file.durability)
        }
        self.store = store
        self.clock = clock
        var configuration = ServerConfiguration()
        // The SVG page unless a test asks for Leaflet: whether Debian's package is installed on
        // the machine running the tests must not change what they check.
        configuration.leafletDirectory = nil
        // A gated store's tests count its commits and reads: no timeline reading behind them.
        if gate != nil { configuration.timelineEnabled = false }
        configure(&configuration)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        environment = TrackServerEnvironment(
            store: gate.map { GatedStore(base: store, gate: $0.gate, log: $0.log) as any TrackStore } ?? store,
            clock: clock.serverClock, configuration: configuration, logger: logger ?? quiet)
    }

    var app: some ApplicationProtocol {
        Application(router: buildRouter(environment), logger: environment.logger)
    }

    /// The same app listening on a real socket (127.0.0.1, a free port), for `.live` tests.
    var liveApp: some ApplicationProtocol {
        Application(
            router: buildRouter(environment), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: environment.logger)
    }

    /// Runs `body` with a client of the router, in process.
    func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await app.test(.router, body)
    }

    func sampleCount(_ device: String = "iphone-42") async throws -> Int {
        try await store.device(named: device)?.sampleCount ?? -1
    }
}

extension HTTPFields {
    static func bearer(_ token: String, json: Bool = true) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        if json { fields[.contentType] = "application/json" }
        return fields
    }

    static func basic(user: String, password: String) -> HTTPFields {
        let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
        return [.authorization: "Basic \(encoded)", .contentType: "application/json"]
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: Any? {
        try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])
    }
}

extension ByteBuffer {
    init(text: String) { self.init(string: text) }
}

extension ApplicationProtocol {
    /// `test(.live)` with the server, its connections and its handlers on threads of their own
    /// (``onOwnThreads(isolation:_:)``): a live server answers however busy the other tests keep
    /// the cooperative pool.
    func testLive<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await onOwnThreads { try await self.test(.live, body) }
    }
}

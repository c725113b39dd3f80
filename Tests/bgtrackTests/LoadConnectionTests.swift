import Foundation
import LoadGenerator
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The load generator's HTTP/1.1 client on a scripted socket: responses framed by
/// `Content-Length`, by chunked transfer coding (with extensions and trailers, split across
/// writes) and by closing, all on one kept-alive connection; and the generated Overland times.
@Suite struct LoadConnectionTests {
    /// A one-connection server on 127.0.0.1: for each request head it reads, it writes the next
    /// reply (each reply a list of separate writes), then closes.
    final class ScriptedServer: @unchecked Sendable {
        // Written once in init, read after; the thread only uses its own copies.
        let port: Int
        private let listener: Int32

        init(replies: [[String]]) throws {
            #if canImport(Glibc)
                listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                listener = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listener = listener
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
            }
            try #require(bound == 0 && listen(listener, 1) == 0)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            let thread = Thread {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var pending: [UInt8] = []
                for reply in replies {
                    while !pending.containsHeadEnd {
                        var chunk = [UInt8](repeating: 0, count: 4096)
                        let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                        guard count > 0 else { return }
                        pending += chunk[..<count]
                    }
                    pending.removeAll()
                    for part in reply {
                        let bytes = Array(part.utf8)
                        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                    }
                }
                close(client)
            }
            thread.start()
        }

        deinit { close(listener) }
    }

    static let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    @Test func readsLengthChunkedAndCloseFramedResponsesOnOneConnection() throws {
        let server = try ScriptedServer(replies: [
            ["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", "lo"],
            [
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"r", "e\r\n7\r\nsult\":\"\r\n",
                "4\r\nok\"}\r\n0\r\nX-Trailer: 1\r\n\r\n",
            ],
            ["HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 0\r\n\r\n"],
            ["HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end"],
        ])
        let connection = try LoadConnection(LoadTarget(url: "http://127.0.0.1:\(server.port)"))
        let first = try connection.roundTrip(Self.request)
        #expect(first.status == 200 && first.body == Array("hello".utf8))
        let second = try connection.roundTrip(Self.request)
        #expect(String(decoding: second.body, as: UTF8.self) == "{\"result\":\"ok\"}")
        let third = try connection.roundTrip(Self.request)
        #expect(third.status == 503 && third.retryAfter == 5 && third.body.isEmpty)
        let fourth = try connection.roundTrip(Self.request)
        #expect(fourth.closes && String(decoding: fourth.body, as: UTF8.self) == "to the end")
        #expect(throws: LoadConnection.Failure.self) { _ = try connection.roundTrip(Self.request) }
    }

    /// A body read without being kept is counted, and the next response on the connection is read
    /// from where it ended.
    @Test func aBodyNotKeptIsCountedAndTheConnectionReadsOn() throws {
        let server = try ScriptedServer(replies: [
            [
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"r", "e\r\n7\r\nsult\":\"\r\n",
                "4\r\nok\"}\r\n0\r\n\r\n",
            ],
            ["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", "lo"],
        ])
        let connection = try LoadConnection(LoadTarget(url: "http://127.0.0.1:\(server.port)"))
        let chunked = try connection.roundTrip(Self.request, keepBody: false)
        #expect(chunked.status == 200 && chunked.body.isEmpty && chunked.bodyLength == 15)
        let framed = try connection.roundTrip(Self.request, keepBody: false)
        #expect(framed.body.isEmpty && framed.bodyLength == 5)
    }

    /// A 503 and a 500 count as errors and the same request is sent again on the same keep-alive
    /// connection (`Retry-After: 0`, so nothing waits); the device moves on only after the
    /// acknowledgement.
    @Test func aFailedRequestIsCountedAndResentUntilAcknowledged() async throws {
        let server = try ScriptedServer(replies: [
            ["HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n"],
            ["HTTP/1.1 500 Internal Server Error\r\nRetry-After: 0\r\nContent-Length: 2\r\n\r\n{}"],
            ["HTTP/1.1 200 OK\r\nContent-Length: 38\r\n\r\n{\"accepted\":[],\"duplicates\":[\"a\",\"b\"]}"],
        ])
        let plan = LoadPlan(
            targets: [try LoadTarget(url: "http://127.0.0.1:\(server.port)")], devices: [(name: "d", token: "t")],
            protocol: .native, batch: 2, connections: 1, duration: .seconds(600), requestsPerDevice: 1,
            now: 1_764_000_000_000)
        let result = await DeviceLoad.run(plan)
        #expect(result.errors == ["HTTP 503": 1, "HTTP 500": 1])
        #expect(result.requests == 3 && result.acknowledgedRequests == 1 && result.acknowledgedSamples == 2)
        #expect(result.serverDuplicates == 2)
        #expect(result.devices.map(\.acknowledged) == [2] && result.devices.map(\.sent) == [2])
        #expect(result.latencies.count == 1)
    }

    @Test func aRefusedConnectionSaysWhere() throws {
        let error = #expect(throws: LoadConnection.Failure.self) {
            _ = try LoadConnection(LoadTarget(url: "http://127.0.0.1:1"))
        }
        #expect(error?.description.contains("connect to 127.0.0.1:1 failed") == true, "\(String(describing: error))")
    }
}

extension [UInt8] {
    fileprivate var containsHeadEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
    }
}

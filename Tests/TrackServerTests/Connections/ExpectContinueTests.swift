import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import TrackServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Expect: 100-continue` (issue 41 item 3): `curl -T` and other clients that ask wait for `100
/// Continue` before sending the body (curl one second); the server answers it at once.
@Suite("Expect: 100-continue is answered at once")
struct ExpectContinueTests {
    static func head(expect: String?) -> HTTPRequestPart {
        var fields: HTTPFields = [.contentLength: "10"]
        if let expect { fields[.expect] = expect }
        return .head(
            HTTPRequest(method: .post, scheme: nil, authority: "bgtrack", path: "/v1/batches", headerFields: fields))
    }

    @Test(arguments: ["100-continue", "100-Continue", " 100-continue "])
    func aHeadThatAsksGetsContinueBeforeItsBody(expect: String) throws {
        let channel = EmbeddedChannel(
            handler: ConnectionGuard(limits: ConnectionLimits(), counters: ConnectionCounters()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.writeInbound(Self.head(expect: expect))
        guard case .head(let response)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no 100 Continue written")
            return
        }
        #expect(response.status == .continue)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil, "the head still goes to the application")
    }

    @Test func aHeadThatDoesNotAskGetsNothingExtra() throws {
        let channel = EmbeddedChannel(
            handler: ConnectionGuard(limits: ConnectionLimits(), counters: ConnectionCounters()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.writeInbound(Self.head(expect: nil))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    }

    /// A raw socket to the real pipeline (codec, guard, lane, router): the head alone is answered
    /// `100 Continue`, then the body is sent and stored. A read timeout bounds the wait; nothing sleeps.
    @Test func overARealSocketTheHeadAloneIsAnsweredContinueThenTheBatchIsStored() async throws {
        let server = try await TestServer {
            $0.port = 0
            $0.host = "127.0.0.1"
        }
        let app = buildApplication(server.environment)
        let token = server.phoneToken
        let (interim, final) = try await app.testLive { client in
            let port = try #require(client.port)
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            let body = Fixtures.nativeBatch
            try socket.send(
                "POST /v1/batches HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Expect: 100-continue\r\n\r\n")
            let interim = try socket.receive()
            try socket.send(body)
            // The answer comes after the commit's fsync: on a loaded machine that may take more
            // than one read's 5 s timeout, so up to six reads.
            var final = ""
            for _ in 0..<6 where !final.contains("\r\n\r\n") { final += try socket.receive() }
            return (interim, final)
        }
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim.prefix(80))")
        #expect(final.contains("HTTP/1.1 200 OK"), "\(final.prefix(200))")
        #expect(try await server.sampleCount() == 2)
    }
}

/// A blocking TCP client for one exchange, each read bounded by `SO_RCVTIMEO` (5 s).
struct RawSocket {
    let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RawSocketError(what: "socket") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        let connected = address.withSockAddr { pointer, size in connect(descriptor, pointer, socklen_t(size)) }
        guard connected == 0 else { throw RawSocketError(what: "connect") }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw RawSocketError(what: "write") }
            sent += count
        }
    }

    /// What one read returns (empty on timeout or close).
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(descriptor, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}

struct RawSocketError: Error {
    var what: String
}

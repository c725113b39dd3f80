import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to a loopback server with blocking sockets: the load
/// generator of `bgtrack-bench single-point` and `bgtrack load`, one per thread, as light as wrk's
/// so the server gets the CPU.
///
/// Only what a load generator needs: a request already encoded, a response framed by
/// `Content-Length`, by chunked transfer coding, or by the server closing the connection.
package final class LoadConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` begin (consumed bytes are dropped in bulk, not one by one).
    private var start = 0

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Connects to `target`; a read or write that waits longer than `timeout` seconds fails.
    /// - Throws: ``Failure`` when the socket cannot be made or the server refuses the connection.
    package init(_ target: LoadTarget, timeout: Int = 30) throws {
        let family = target.isIPv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
            socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(family, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if target.isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(target.port).bigEndian)
            guard inet_pton(AF_INET6, target.address, &address.sin6_addr) == 1 else {
                throw Failure(description: "\(target.address) is not an IPv6 address")
            }
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(target.port).bigEndian)
            guard inet_pton(AF_INET, target.address, &address.sin_addr) == 1 else {
                throw Failure(description: "\(target.address) is not an IPv4 address")
            }
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else {
            throw Failure(description: "connect to \(target.hostHeader) failed: \(Self.text(errno: errno))")
        }
    }

    /// Connects to 127.0.0.1 at `port`.
    package convenience init(port: Int) throws {
        try self.init(LoadTarget(address: "127.0.0.1", port: port))
    }

    // Also runs when `init` throws after `socket` is set: the socket is closed exactly once, here.
    deinit { if socket >= 0 { close(socket) } }

    /// Sends `request` and reads one response.
    /// - Parameters:
    ///   - keepBody: false reads the body and counts it without keeping it (a long export measured
    ///     without the client's memory in the server's process figures): `body` stays empty.
    /// - Throws: ``Failure`` on a socket error, a timeout, a closed connection or a response that is
    ///   not HTTP/1.x. The connection is unusable afterwards.
    package func roundTrip(_ request: [UInt8], keepBody: Bool = true) throws -> LoadResponse {
        try write(request)
        return try readResponse(keepBody: keepBody)
    }

    /// Sends `request` (one, or several back to back: HTTP/1.1 pipelining) without reading.
    package func write(_ request: [UInt8]) throws {
        var sent = 0
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, flags) }
            guard written > 0 else { throw Failure(description: "send failed: \(Self.text(errno: errno))") }
            sent += written
        }
    }

    /// Reads the next response (after ``write(_:)``; pipelined responses in order).
    package func readResponse(keepBody: Bool = true) throws -> LoadResponse {
        let headEnd = try readUntil(Self.headTerminator, from: start)
        // The head is read as bytes, without Foundation's string trimming: on two shared cores the
        // load generator's own work is taken from the server it measures.
        // Lines are cut and header names matched in place: no string is made for a header that
        // does not frame the response (the server's security headers, its date).
        let head = buffer[start..<headEnd]
        start = headEnd + 4
        let lines = Self.lines(head)
        guard let statusLine = lines.first, statusLine.starts(with: Self.httpPrefix), statusLine.count >= 12,
            let status = Self.statusCode(statusLine.dropFirst(9).prefix(3))
        else {
            throw Failure(description: "not an HTTP response: \(String(decoding: head.prefix(80), as: UTF8.self))")
        }
        var response = LoadResponse(status: status)
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
                let name = Self.framingHeaders.first(where: { Self.equalsIgnoringCase(line[..<colon], $0.bytes) })?.name
            else { continue }
            let value = String(
                decoding: line[(colon + 1)...].drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }
                    .reversed(), as: UTF8.self)
            switch name {
            case "content-length":
                guard let parsed = Int(value), parsed >= 0 else {
                    throw Failure(description: "unreadable Content-Length: \(value.prefix(20))")
                }
                length = parsed
            case "transfer-encoding": chunked = value.lowercased().contains("chunked")
            case "retry-after": response.retryAfter = Int(value)
            case "connection": response.closes = value.lowercased().contains("close")
            default: break
            }
        }
        if chunked {
            response.body = try readChunked(keep: keepBody, length: &response.bodyLength)
        } else if let length {
            while buffer.count - start < length { try fill() }
            if keepBody { response.body = Array(buffer[start..<start + length]) }
            response.bodyLength = length
            start += length
        } else if status == 204 || status == 304 || (100..<200).contains(status) {
            response.body = []
        } else {
            // No framing: the body runs to the end of the connection.
            while (try? fill()) != nil {}
            response.body = Array(buffer[start...])
            response.bodyLength = response.body.count
            start = buffer.count
            response.closes = true
        }
        compact()
        return response
    }

    private static let headTerminator: [UInt8] = [13, 10, 13, 10]
    private static let httpPrefix = Array("HTTP/1.".utf8)
    private static let framingHeaders: [(name: String, bytes: [UInt8])] = [
        "content-length", "transfer-encoding", "retry-after", "connection",
    ].map { ($0, Array($0.utf8)) }

    /// The head's lines, without their CR LF (a lone LF also ends a line).
    private static func lines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        lines.reserveCapacity(16)
        var lineStart = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 10 {
                var end = index
                if end > lineStart && head[end - 1] == 13 { end -= 1 }
                if end > lineStart { lines.append(head[lineStart..<end]) }
                lineStart = index + 1
            }
            index += 1
        }
        var end = head.endIndex
        if end > lineStart && head[end - 1] == 13 { end -= 1 }
        if end > lineStart { lines.append(head[lineStart..<end]) }
        return lines
    }

    /// Three ASCII digits.
    private static func statusCode(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.count == 3 else { return nil }
        var code = 0
        for byte in digits {
            guard (48...57).contains(byte) else { return nil }
            code = code * 10 + Int(byte - 48)
        }
        return code
    }

    /// `bytes` equal `lowercase` (ASCII letters in any case).
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: [UInt8]) -> Bool {
        bytes.count == lowercase.count
            && zip(bytes, lowercase).allSatisfy { (65...90).contains($0) ? $0 | 0x20 == $1 : $0 == $1 }
    }
    private static let lineTerminator: [UInt8] = [13, 10]

    /// Chunked transfer coding (RFC 9112 §7.1): hex size lines, data, a zero chunk, trailers.
    private func readChunked(keep: Bool, length: inout Int) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil(Self.lineTerminator, from: start)
            let line = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0,
                size < 1 << 30
            else { throw Failure(description: "unreadable chunk size: \(line.prefix(20))") }
            start = lineEnd + 2
            if size == 0 {
                // Trailers, if any, then an empty line.
                while true {
                    let end = try readUntil(Self.lineTerminator, from: start)
                    let empty = end == start
                    start = end + 2
                    if empty { return body }
                }
            }
            while buffer.count - start < size + 2 { try fill() }
            if keep { body.append(contentsOf: buffer[start..<start + size]) }
            length += size
            start += size + 2
            if !keep { compact() }
        }
    }

    /// The index where `terminator` next occurs at or after `from`, reading more as needed.
    private func readUntil(_ terminator: [UInt8], from: Int) throws -> Int {
        var searched = from
        while true {
            var index = max(from, searched - terminator.count + 1)
            while index + terminator.count <= buffer.count {
                if buffer[index] == terminator[0]
                    && buffer[index..<index + terminator.count].elementsEqual(terminator)
                {
                    return index
                }
                index += 1
            }
            searched = buffer.count
            try fill()
        }
    }

    /// Drops the bytes already consumed.
    private func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if start > 0 {
            buffer.removeFirst(start)
        }
        start = 0
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            throw Failure(description: "no answer within the read timeout")
        }
        guard count > 0 else {
            throw Failure(
                description: count == 0
                    ? "the server closed the connection" : "recv failed: \(Self.text(errno: errno))")
        }
        buffer.append(contentsOf: chunk[..<count])
    }

    private static func text(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// One response as ``LoadConnection`` read it.
package struct LoadResponse: Sendable, Hashable {
    package var status: Int
    package var body: [UInt8] = []
    /// The body's length, also when it was not kept.
    package var bodyLength = 0
    /// `Retry-After` in seconds, when given as a number.
    package var retryAfter: Int?
    /// The server closes the connection after this response.
    package var closes = false

    package init(status: Int, body: [UInt8] = [], retryAfter: Int? = nil, closes: Bool = false) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
        self.closes = closes
    }
}

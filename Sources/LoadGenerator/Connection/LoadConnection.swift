import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to 127.0.0.1 with blocking sockets: the load generator of
/// `bgtrack-bench single-point`, one per thread, as light as wrk's so the server gets the CPU.
///
/// Only what the benchmark needs: a request already encoded, a response with `Content-Length`.
final class LoadConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(port: Int) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close(socket) }

    /// Sends `request` and reads one response; returns its status code.
    func roundTrip(_ request: [UInt8]) throws -> Int {
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += written
        }
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12,
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(description: "not an HTTP response: \(head.prefix(80))") }
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let total = headEnd + 4 + length
        while buffer.count < total { try fill() }
        buffer.removeFirst(total)
        return status
    }

    private func readUntilHeadEnd() throws -> Int {
        var searched = 0
        while true {
            if buffer.count >= 4 {
                var index = max(0, searched - 3)
                while index + 3 < buffer.count {
                    if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
                        && buffer[index + 3] == 10
                    {
                        return index
                    }
                    index += 1
                }
                searched = buffer.count
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: "the server closed the connection (errno \(errno))") }
        buffer.append(contentsOf: chunk[..<count])
    }
}

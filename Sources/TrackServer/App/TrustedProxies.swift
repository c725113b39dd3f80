import Foundation
public import HTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One address block of `serve --trusted-proxy`, IPv4 or IPv6 (`10.0.0.0/8`, `::1/128`; a bare
/// address is its own block).
public struct AddressBlock: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let network: [UInt8]
    let prefix: Int

    /// Parses `ADDRESS[/PREFIX]`; `nil` when it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...bits).contains(value), parts[1].allSatisfy(\.isASCII) else {
                return nil
            }
            prefix = value
        }
        self.prefix = prefix
        network = Self.masked(bytes, prefix: prefix)
    }

    public var description: String {
        let size = network.count == 4 ? INET_ADDRSTRLEN : INET6_ADDRSTRLEN
        var buffer = [CChar](repeating: 0, count: Int(size))
        let family = network.count == 4 ? AF_INET : AF_INET6
        let text = network.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(size)) != nil
                ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        }
        return "\(text)/\(prefix)"
    }

    /// Whether `address` (its text form) is inside the block. An IPv4-mapped IPv6 address
    /// (`::ffff:127.0.0.1`, how a dual-stack socket names an IPv4 peer) counts as its IPv4 address.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(address) else { return false }
        if bytes.count == 16, network.count == 4, bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] {
            bytes = Array(bytes.suffix(4))
        }
        return bytes.count == network.count && Self.masked(bytes, prefix: prefix) == network
    }

    /// The address's bytes (`inet_pton`), an IPv6 zone (`%eth0`) ignored.
    static func bytes(_ text: String) -> [UInt8]? {
        let plain = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        guard !plain.isEmpty, plain.count <= 45 else { return nil }
        var four = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, plain, &four) == 1 { return four }
        var sixteen = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, plain, &sixteen) == 1 { return sixteen }
        return nil
    }

    private static func masked(_ bytes: [UInt8], prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(8, max(0, prefix - index * 8))
            return keep == 8 ? byte : byte & ~(UInt8(0xFF) >> keep)
        }
    }
}

/// The proxies whose `Forwarded`, `X-Forwarded-For` and `X-Forwarded-Proto` headers the server
/// believes (`serve --trusted-proxy`). From any other peer those headers are ignored: the client is
/// the socket's peer, whatever it claims.
public struct TrustedProxies: Sendable, Hashable {
    public var blocks: [AddressBlock]

    public init(_ blocks: [AddressBlock] = []) {
        self.blocks = blocks
    }

    /// Parses `--trusted-proxy` values; the error names the one that is not a CIDR block.
    public init(parsing values: [String]) throws(TrustedProxyError) {
        blocks = try values.map { value throws(TrustedProxyError) in
            guard let block = AddressBlock(value) else { throw TrustedProxyError(value: value) }
            return block
        }
    }

    public func contains(_ address: String) -> Bool { blocks.contains { $0.contains(address) } }

    /// Who sent the request: the socket's peer, or, when the peer is a trusted proxy, the nearest
    /// address in its forwarding chain that is not itself a trusted proxy (read right to left, so a
    /// client cannot push its own made-up addresses past the proxy). `Forwarded` (RFC 7239) wins
    /// over `X-Forwarded-For`; a chain that holds something other than an address is ignored as a
    /// whole, as are obfuscated and `unknown` nodes (the last trusted hop is then the client).
    public func client(peer: String?, headers: HTTPFields) -> ForwardedClient {
        guard let peer, contains(peer) else { return ForwardedClient(address: peer, scheme: nil, proxy: nil) }
        let chain = Self.forwardedChain(headers) ?? Self.xForwardedChain(headers) ?? []
        var client = peer
        for hop in chain.reversed() {
            guard AddressBlock.bytes(hop) != nil else { break }
            client = hop
            if !contains(hop) { break }
        }
        let scheme =
            Self.forwardedProto(headers) ?? headers.values(named: HTTPFields.xForwardedProto).last.flatMap(Self.scheme)
        return ForwardedClient(address: client, scheme: scheme, proxy: peer)
    }

    /// `for=` of every element of every `Forwarded` field, in order; `nil` without the header.
    static func forwardedChain(_ headers: HTTPFields) -> [String]? {
        let fields = headers.values(named: HTTPFields.forwarded)
        guard !fields.isEmpty else { return nil }
        return fields.flatMap { $0.split(separator: ",") }.map { element in
            parameter("for", in: element).map(nodeAddress) ?? ""
        }
    }

    static func xForwardedChain(_ headers: HTTPFields) -> [String]? {
        let fields = headers.values(named: HTTPFields.xForwardedFor)
        guard !fields.isEmpty else { return nil }
        return fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func forwardedProto(_ headers: HTTPFields) -> String? {
        headers.values(named: HTTPFields.forwarded).flatMap { $0.split(separator: ",") }.last
            .flatMap { parameter("proto", in: $0) }.flatMap(scheme)
    }

    static func scheme(_ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        return ["http", "https"].contains(value) ? value : nil
    }

    /// The value of `name=` in one `Forwarded` element (`for=192.0.2.1;proto=https`), unquoted.
    static func parameter(_ name: String, in element: Substring) -> String? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == name else {
                continue
            }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// A `Forwarded` node without its port: `192.0.2.1:4711` → `192.0.2.1`, `[2001:db8::1]:80` → `2001:db8::1`.
    static func nodeAddress(_ node: String) -> String {
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<close])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") {
            return String(node[..<colon])
        }
        return node
    }
}

/// Who a request came from, as ``TrustedProxies/client(peer:headers:)`` decided.
public struct ForwardedClient: Sendable, Hashable {
    /// The client's address; `nil` without a socket (in-process router tests).
    public var address: String?
    /// `https` or `http` as the trusted proxy said; `nil` when no trusted proxy said.
    public var scheme: String?
    /// The trusted proxy the request came through; `nil` when it came directly.
    public var proxy: String?
}

/// A `--trusted-proxy` value that is not an address block.
public struct TrustedProxyError: Error, CustomStringConvertible {
    public var value: String
    public var description: String {
        "--trusted-proxy '\(value.prefix(60))' is not an IP address or CIDR block; e.g. 127.0.0.1/32, 10.0.0.0/8 or ::1/128"
    }
}

extension HTTPFields {
    /// The values of every field named `name` (lower case), in order. HTTPTypes predefines no
    /// name for the forwarding headers, and a failable `HTTPField.Name` would need a force unwrap.
    func values(named name: String) -> [String] {
        filter { $0.name.canonicalName == name }.map(\.value)
    }

    static let forwarded = "forwarded"
    static let xForwardedFor = "x-forwarded-for"
    static let xForwardedProto = "x-forwarded-proto"

    /// Whether the request carries any forwarding header.
    var hasForwarding: Bool {
        contains { [Self.forwarded, Self.xForwardedFor].contains($0.name.canonicalName) }
    }
}

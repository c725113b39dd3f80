import Foundation

/// A server the load generator may drive: `http://` to this machine only.
///
/// A load generator aimed at someone else's server is an attack, so only loopback addresses are
/// accepted (127.0.0.0/8, `localhost`, `[::1]`), written as literals: no name is resolved, so
/// neither DNS nor a hosts file can send the load elsewhere.
///
/// ```swift
/// let target = try LoadTarget(url: "http://127.0.0.1:8080")
/// ```
package struct LoadTarget: Hashable, Sendable, CustomStringConvertible {
    /// The address to connect to: an IPv4 or IPv6 literal (`localhost` becomes 127.0.0.1).
    package var address: String
    package var port: Int
    /// The `Host` header: the host and port as the URL wrote them.
    package var hostHeader: String

    package var isIPv6: Bool { address.contains(":") }

    package var description: String { "http://\(hostHeader)" }

    package init(address: String, port: Int) {
        self.address = address
        self.port = port
        self.hostHeader = (address.contains(":") ? "[\(address)]" : address) + ":\(port)"
    }

    /// Parses and checks a server URL, `http://HOST[:PORT][/]`.
    /// - Throws: ``LoadTargetError`` saying what is wrong and what is accepted.
    package init(url text: String) throws(LoadTargetError) {
        // Messages never repeat a password: user information is shown as ***.
        var redacted = text
        if let scheme = text.range(of: "://"), let at = text.lastIndex(of: "@"), at > scheme.upperBound {
            redacted = text[..<scheme.upperBound] + "***" + text[at...]
        }
        let shown = String(redacted.prefix(80)) + (redacted.count > 80 ? "…" : "")
        guard text.utf8.count <= 200 else { throw .malformed(shown, "it is longer than 200 characters") }
        guard text.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\0" }) else {
            throw .malformed(shown, "it contains spaces, control or non-ASCII characters")
        }
        let lower = text.lowercased()
        if lower.hasPrefix("https://") { throw .https(shown) }
        guard lower.hasPrefix("http://") else {
            throw .malformed(shown, "it does not start with http://")
        }
        let rest = text.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        guard tail.isEmpty || tail == "/" else {
            throw .malformed(shown, "it has a path, query or fragment; give only the server's base URL")
        }
        guard !authority.contains("@") else {
            throw .malformed(shown, "it carries a user name or password; the devices bring their own tokens")
        }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .malformed(shown, "an IPv6 address opened with [ is not closed with ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw .malformed(shown, "something other than :PORT follows the IPv6 address")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
            portText = nil
        }
        guard !host.isEmpty else { throw .malformed(shown, "it has no host") }
        var port = 80
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit),
                let value = Int(portText), (1...65_535).contains(value)
            else {
                throw .malformed(shown, "the port is not a number from 1 to 65535")
            }
            port = value
        }
        guard let address = Self.loopbackAddress(String(host)) else {
            throw .notLoopback(shown, host: String(host.prefix(64)))
        }
        self.init(address: address, port: port)
        hostHeader = String(authority)
    }

    /// The literal to connect to when `host` is a loopback address, else `nil`.
    static func loopbackAddress(_ host: String) -> String? {
        let lower = host.lowercased()
        if lower == "localhost" { return "127.0.0.1" }
        if lower == "::1" || lower == "0:0:0:0:0:0:0:1" { return "::1" }
        // Dotted decimal only, four parts, first 127: "127.1", "0x7f.0.0.1" and "2130706433" are
        // loopback to some parsers and not to others, so they are refused rather than guessed.
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { part in
            part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (part == "0" || !part.hasPrefix("0"))
                ? Int(part) : nil
        }
        guard parts.count == 4, octets.count == 4, octets.allSatisfy({ (0...255).contains($0) }), octets[0] == 127
        else { return nil }
        return octets.map(String.init).joined(separator: ".")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Why a `--server` URL was refused.
package enum LoadTargetError: Error, Hashable, CustomStringConvertible {
    case malformed(String, String)
    case https(String)
    case notLoopback(String, host: String)

    package var description: String {
        switch self {
        case .malformed(let url, let why):
            "'\(url)' is not a usable server URL: \(why); write http://127.0.0.1:PORT"
        case .https(let url):
            "'\(url)' uses https; the load generator speaks plain HTTP to a server on this machine, "
                + "write http://127.0.0.1:PORT (put the TLS proxy out of the measurement)"
        case .notLoopback(let url, let host):
            "'\(url)' is not on this machine: \(host) is not a loopback address. bgtrack load is a load "
                + "generator and only drives servers on 127.0.0.0/8, localhost or [::1]; never point it at "
                + "someone else's server"
        }
    }
}

import Foundation

/// Where the PostgreSQL store connects, parsed from a `postgres://` URL.
///
/// ```swift
/// let configuration = try PostgresStoreConfiguration(url: "postgres://bgtrack@127.0.0.1:5432/tracks")
/// ```
///
/// The connection is plain TCP (`sslmode=disable`): run the database on loopback or a private
/// network, or reach it through a TLS tunnel.
public struct PostgresStoreConfiguration: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var username: String
    /// Never printed: ``description`` leaves it out.
    public var password: String?
    public var database: String
    /// The schema the tables live in, created if missing; `nil` uses the server's `search_path`
    /// (normally `public`). Tests give each test its own.
    public var schema: String?
    /// Connections the server keeps at most (PostgresNIO's pool).
    public var maximumConnections = 20

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        schema: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
    }

    /// Parses `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=disable]`.
    /// - Throws: ``PostgresStoreError`` saying which part is wrong and what a good URL looks like.
    public init(url text: String) throws {
        func fail(_ problem: String) -> PostgresStoreError {
            PostgresStoreError(
                "the PostgreSQL URL \(Self.redact(text)) \(problem); expected "
                    + "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, e.g. postgres://bgtrack@127.0.0.1:5432/tracks")
        }
        guard let components = URLComponents(string: text) else { throw fail("is not a URL") }
        guard let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme) else {
            throw fail("does not start with postgres://")
        }
        guard let host = components.host, !host.isEmpty else { throw fail("has no host") }
        guard let username = components.user, !username.isEmpty else { throw fail("has no user name (USER@HOST)") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw fail("has no database name after the host") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw fail("has port \(port), outside 1…65535") }
        self.init(
            host: host, port: port, username: username, password: components.password, database: database)
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("schema", let value?):
                guard Self.isPlainIdentifier(value) else {
                    throw fail(
                        "has schema \"\(value.prefix(64))\"; use 1…63 of a-z, 0-9 and _, not starting with a digit")
                }
                schema = value
            case ("sslmode", "disable"):
                break
            case ("sslmode", let value):
                throw fail(
                    "asks for sslmode=\(value ?? ""); this build connects without TLS only (sslmode=disable): "
                        + "keep PostgreSQL on loopback or a private network, or tunnel it")
            default:
                throw fail("has the unknown parameter \"\(item.name.prefix(40))\" (known: schema, sslmode)")
            }
        }
    }

    /// `user@host:port/database[?schema=…]`, without the password: safe for logs and errors.
    public var redacted: String {
        "\(username)@\(host):\(port)/\(database)" + (schema.map { "?schema=\($0)" } ?? "")
    }

    /// The URL with any password replaced by `***`, for messages about a URL that did not parse.
    static func redact(_ text: String) -> String {
        let shown = String(text.prefix(200))
        guard let components = URLComponents(string: shown), components.password != nil else {
            // No parsable password; hide whatever sits between "://user:" and "@" all the same.
            if let scheme = shown.range(of: "://"),
                let at = shown.range(of: "@", range: scheme.upperBound..<shown.endIndex),
                let colon = shown.range(of: ":", range: scheme.upperBound..<at.lowerBound)
            {
                return "'\(shown[..<colon.upperBound])***\(shown[at.lowerBound...])'"
            }
            return "'\(shown)'"
        }
        var copy = components
        copy.password = "***"
        return "'\(copy.string ?? "postgres://…")'"
    }

    /// Lower-case SQL identifiers that need no quoting rules beyond double quotes.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard (1...63).contains(name.utf8.count), let first = name.utf8.first, !(48...57).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") }
    }
}

extension PostgresStoreConfiguration: CustomStringConvertible {
    public var description: String { redacted }
}

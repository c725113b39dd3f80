import PostgresNIO
public import TrackServer

/// A PostgreSQL failure explained: what went wrong, why if the server said, and what to do.
///
/// PostgresNIO's own errors print a generic text on purpose (they may carry query data); this
/// keeps the server's message, its SQLSTATE and a hint, never a password.
public struct PostgresStoreError: Error, Hashable, CustomStringConvertible, StorageFullReporting {
    public var description: String
    /// The server's SQLSTATE (e.g. `23505`), when the server answered.
    public var sqlState: String?

    /// `disk_full` (53100): the server answers the write 503 with `Retry-After`, like SQLite's `SQLITE_FULL`.
    public var isStorageFull: Bool { sqlState == "53100" }

    package init(_ description: String, sqlState: String? = nil) {
        self.description = description
        self.sqlState = sqlState
    }

    /// Explains `error` from talking to `configuration`'s server.
    static func explaining(_ error: any Error, _ configuration: PostgresStoreConfiguration) -> any Error {
        guard let error = error as? PSQLError else { return error }
        let server = configuration.redacted
        if let info = error.serverInfo {
            let state = info[.sqlState]
            let message = info[.message] ?? "no message"
            let detail = info[.detail].map { " (\($0))" } ?? ""
            let hint: String
            switch state {
            case "3D000": hint = "; create the database (createdb) or fix the name in the URL"
            case "28P01", "28000": hint = "; check the user and password in the URL and the server's pg_hba.conf"
            case "57P03": hint = "; the server is starting or shutting down, try again"
            case "53100": hint = "; the database server's disk is full: free space there"
            case "53300": hint = "; lower the servers' connection counts or raise max_connections"
            default: hint = ""
            }
            return PostgresStoreError(
                "PostgreSQL \(server) answered \(state ?? "an error"): \(message)\(detail)\(hint)", sqlState: state)
        }
        switch error.code {
        case .connectionError:
            let why = error.underlying.map { "\($0)" } ?? "no reason given"
            return PostgresStoreError(
                "cannot connect to PostgreSQL at \(configuration.host):\(configuration.port) (\(why)); "
                    + "is the server running and listening there? Start it or fix the host and port in the URL")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return PostgresStoreError(
                "the connection to PostgreSQL \(server) closed (\(error.code)); the server may have restarted, "
                    + "retry the request")
        case .poolClosed:
            return PostgresStoreError("the PostgreSQL store \(server) is closed (the server is shutting down)")
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return PostgresStoreError(
                "PostgreSQL \(server) refused to authenticate (\(error.code)); put the password in the URL "
                    + "(postgres://USER:PASSWORD@HOST/DB) or allow the user in pg_hba.conf")
        case .sslUnsupported:
            return PostgresStoreError("PostgreSQL \(server) does not support TLS")
        default:
            return PostgresStoreError("PostgreSQL \(server) failed: \(error.code)")
        }
    }
}

import ArgumentParser
import Foundation
import LocationLog
import Logging
import TrackServer

#if Postgres
    import TrackServerPostgres
#endif

/// `--db` or `--postgres`, shared by `serve`, `device …` and `operator …`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The server's SQLite database (created if missing).")
    var path: String = "./data/tracks.sqlite"

    @Option(
        help: ArgumentHelp(
            "full: each acknowledged upload is fsynced and survives a power cut (default); normal: faster, "
                + "survives a process kill but may lose the last acknowledged uploads in an OS crash or power cut. "
                + "SQLite only."))
    var durability: Durability = .powerLoss

    @Option(
        name: .customLong("postgres"),
        help: ArgumentHelp(
            "Use PostgreSQL instead of SQLite (several servers may share it): "
                + "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]. Tables are created on first use."
                + Self.postgresAvailability,
            valueName: "url"))
    var postgresURL: String?

    func validate() throws {
        _ = try postgresConfiguration()
    }

    #if Postgres
        static let postgresAvailability = ""

        /// The parsed `--postgres` URL, `nil` for SQLite.
        func postgresConfiguration() throws -> PostgresStoreConfiguration? {
            guard let postgresURL else { return nil }
            do {
                return try PostgresStoreConfiguration(url: postgresURL)
            } catch let error as PostgresStoreError {
                throw ValidationError("--postgres: \(error.description)")
            }
        }

        /// What the logs and messages name: the SQLite path or the PostgreSQL URL without password.
        var name: String {
            (try? postgresConfiguration()).map { "postgres://\($0.redacted)" } ?? path
        }
    #else
        /// This `bgtrack` was built without the `Postgres` trait: `--postgres` is refused at once,
        /// saying how to build one that has it.
        func postgresConfiguration() throws -> Never? {
            guard postgresURL == nil else { throw ValidationError(Self.builtWithoutPostgres) }
            return nil
        }

        static let postgresAvailability =
            " Needs a bgtrack built with PostgreSQL: swift build --package-path Tools --traits Postgres."

        static let builtWithoutPostgres =
            "--postgres: this bgtrack was built without PostgreSQL support (the package's Postgres trait is off "
            + "by default so the SQLite server builds faster); build one with it: "
            + "swift build --package-path Tools --traits Postgres --product bgtrack (or swift run --package-path "
            + "Tools --traits Postgres bgtrack serve --postgres URL)"

        /// What the logs and messages name: the SQLite path.
        var name: String { path }
    #endif

    /// Opens the chosen store, runs `body` with it, and closes it.
    ///
    /// SQLite: creates the parent directory first. PostgreSQL: connects and migrates first, so a
    /// stopped server or a wrong URL fails here, before anything else starts.
    func withStore<T: Sendable>(logger: Logger? = nil, _ body: (any TrackStore) async throws -> T) async throws -> T {
        #if Postgres
            if let postgres = try postgresConfiguration() {
                let logger = logger ?? Logger(label: "bgtrack.postgres") { _ in SwiftLogNoOpLogHandler() }
                do {
                    let result = try await PostgresTrackStore.withStore(postgres, logger: logger) { try await body($0) }
                    logger.notice("store closed", metadata: ["db": "\(name)"])
                    return result
                } catch let error as PostgresStoreError {
                    throw ValidationError(error.description)
                }
            }
        #else
            _ = try postgresConfiguration()
        #endif
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteTrackStore(path: path, durability: durability)
        let result = try await body(store)
        // Checkpoints the WAL into the database and closes the file: the next start opens a clean one.
        try store.close()
        logger?.notice("store closed", metadata: ["db": "\(path)"])
        return result
    }
}

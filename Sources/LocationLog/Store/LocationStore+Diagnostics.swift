public import BackgroundCore
import GRDB

/// One line of the on-phone diagnostics log (rejected fixes, upload failures, pauses).
public struct Diagnostic: Hashable, Sendable {
    public enum Level: String, Hashable, Sendable { case info, warning, error }
    public var time: Instant
    public var level: Level
    public var message: String

    public init(time: Instant, level: Level, message: String) {
        self.time = time
        self.level = level
        self.message = message
    }
}

extension LocationStore {
    /// Appends to the diagnostics log and trims it to the newest `diagnosticsLimit` rows.
    public func log(_ level: Diagnostic.Level, _ message: String, at now: Instant) throws(StoreError) {
        try write("writing a diagnostic") { db in
            // Cached statements: the shell logs at many events.
            try db.cachedStatement(sql: "INSERT INTO diagnostic (t, level, message) VALUES (?, ?, ?)").execute(
                arguments: [now.milliseconds, level.rawValue, message])
            try db.cachedStatement(sql: "DELETE FROM diagnostic WHERE id <= ?").execute(
                arguments: [db.lastInsertedRowID - Int64(diagnosticsLimit)])
        }
    }

    /// The newest diagnostics, oldest first.
    public func diagnostics(limit: Int = 100) throws(StoreError) -> [Diagnostic] {
        try read("reading diagnostics") { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM (SELECT * FROM diagnostic ORDER BY id DESC LIMIT ?) ORDER BY id",
                arguments: [limit]
            ).map { row in
                // `decode` throws where `row["…"]` would trap on a value of the wrong type.
                Diagnostic(
                    time: Instant(milliseconds: try row.decode(forColumn: "t")),
                    level: Diagnostic.Level(rawValue: try row.decode(String.self, forColumn: "level")) ?? .info,
                    message: try row.decode(forColumn: "message"))
            }
        }
    }
}

import BackgroundCore
public import Foundation
public import GRDB

/// The phone's durable store: pending samples, quarantine, sync state and a bounded diagnostics log.
///
/// A `Sendable` facade around one GRDB writer (the GRDB demo's `AppDatabase` shape): it migrates
/// in `init` and exposes domain methods, never SQL. The store is the only place a sample lives
/// between being measured and being acknowledged by the server, so every method that returns
/// has committed its transaction.
///
/// ```swift
/// let (store, report) = try LocationStore.open(path: url.path, now: now)
/// let sample = try store.append(fix, trigger: .timer, state: .background, at: now)
/// ```
public struct LocationStore: Sendable {
    /// How many diagnostics rows are kept; older ones are deleted as new ones arrive.
    public static let defaultDiagnosticsLimit = 1000

    let writer: any DatabaseWriter
    /// The file path, or `nil` in memory.
    public let path: String?
    let diagnosticsLimit: Int
    let makeID: @Sendable () -> UUID

    /// Wraps an already-open writer and migrates it.
    ///
    /// - Parameters:
    ///   - writer: a GRDB queue or pool; see `open(path:durability:now:)` for files.
    ///   - makeID: mints sample ids (inject a deterministic one in tests).
    /// - Throws: `StoreError` when the schema cannot be created or migrated.
    public init(
        writer: any DatabaseWriter, path: String? = nil, diagnosticsLimit: Int = defaultDiagnosticsLimit,
        makeID: @escaping @Sendable () -> UUID = { UUID() }
    ) throws(StoreError) {
        self.writer = writer
        self.path = path
        self.diagnosticsLimit = max(1, diagnosticsLimit)
        self.makeID = makeID
        do {
            try Self.migrator.migrate(writer)
        } catch {
            throw StoreError(error, operation: "migrating the schema", path: path ?? ":memory:")
        }
    }

    /// A store in memory, for tests and the simulator.
    public static func inMemory(makeID: @escaping @Sendable () -> UUID = { UUID() }) throws(StoreError) -> LocationStore
    {
        do {
            return try LocationStore(writer: DatabaseQueue(), makeID: makeID)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(operation: "opening an in-memory store", reason: "\(error)")
        }
    }
}

extension StoreError {
    /// Maps a GRDB/SQLite error to the store's vocabulary.
    init(_ error: any Error, operation: String, path: String) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .database(operation: operation, reason: "\(error)")
            return
        }
        switch error.resultCode {
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            self = .notWritable(path: path, reason: error.message ?? "\(error.resultCode)")
        default:
            self = .database(operation: operation, reason: "\(error.message ?? "SQLite error") (\(error.resultCode))")
        }
    }
}

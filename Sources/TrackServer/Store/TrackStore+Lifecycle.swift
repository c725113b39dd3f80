public import BackgroundCore

/// The tables that hold a device's rows, by their `device_id` column: what
/// ``TrackStore/eraseDevice(named:at:)`` deletes (in this order, children first, then the
/// `alert_outbox` entries naming the device and the device row) and what
/// ``TrackStore/deviceRowCounts(device:)`` counts. A table that holds rows of a device is added
/// here, in one line; `DeviceErasureTests` fails for a table with a `device_id` column that is not.
public enum DeviceData {
    public static let tables: [String] = [
        "sample",
        "event",
        "rejected_point",
        "session",
        "alert_state",
        "share_link",
        "gap_interval",
        "detail_pending",
        "import_job",
        "timeline_entry",
        "timeline_state",
        "timeline_pending",
        "timeline_checkpoint",
        "device_time_zone",
    ]

    /// What a retention period deletes: the table, the time column it is judged by, the device
    /// tally (if any) its deletions decrement, and the column that picks a batch of rows within the
    /// device (`id`, or the start time where a table has no id).
    public static let aged: [(table: String, time: String, tally: String?, key: String)] = [
        ("sample", "t", "sample_count", "id"),
        ("event", "received_at", nil, "id"),
        ("rejected_point", "received_at", "rejected_count", "id"),
        ("gap_interval", "start", nil, "id"),
        ("timeline_entry", "end_at", nil, "start_at"),
        ("timeline_checkpoint", "newest_at", nil, "newest_at"),
    ]

    /// The per-table counts' key for the device row itself and the queued alerts naming it.
    public static let deviceRow = "device"
    public static let alertOutbox = "alert_outbox"
}

/// Share links, retention and erasure on a store that does not keep them.
public enum DataLifecycleError: Error, Hashable, CustomStringConvertible {
    case unsupported(String)

    public var description: String {
        switch self {
        case .unsupported(let what):
            "this store does not keep \(what); use the SQLite or the PostgreSQL store"
        }
    }
}

extension TrackStore {
    public func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink {
        throw DataLifecycleError.unsupported("share links")
    }
    public func shares(device: String?) async throws -> [ShareLink] {
        throw DataLifecycleError.unsupported("share links")
    }
    public func share(secretHash: String) async throws -> ShareLink? {
        throw DataLifecycleError.unsupported("share links")
    }
    public func countShareView(id: Int64, at now: Instant) async throws {
        throw DataLifecycleError.unsupported("share links")
    }
    public func revokeShare(id: Int64, at now: Instant) async throws -> Bool {
        throw DataLifecycleError.unsupported("share links")
    }
    public func setRetention(device: String, _ retention: Duration?) async throws -> Bool {
        throw DataLifecycleError.unsupported("retention periods")
    }
    public func retentions() async throws -> [String: Duration] {
        throw DataLifecycleError.unsupported("retention periods")
    }
    public func sweep(device: String, before: Instant, limit: Int) async throws -> [String: Int] {
        throw DataLifecycleError.unsupported("retention periods")
    }
    public func deviceRowCounts(device: String) async throws -> [String: Int] {
        throw DataLifecycleError.unsupported("erasure")
    }
    public func eraseDevice(named name: String) async throws -> [String: Int]? {
        throw DataLifecycleError.unsupported("erasure")
    }
}

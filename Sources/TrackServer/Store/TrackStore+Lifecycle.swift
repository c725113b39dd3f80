import BackgroundCore

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

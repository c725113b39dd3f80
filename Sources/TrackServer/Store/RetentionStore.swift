public import BackgroundCore

/// Retention and erasure (issue 25): how long each device's rows are kept, the sweep that
/// deletes older ones, and erasing a device (``DeviceData`` names the tables).
public protocol RetentionStore: Sendable {
    /// Sets the device's retention period (`nil`: the server's). False if unknown.
    func setRetention(device: String, _ retention: Duration?) async throws -> Bool
    /// The devices that have a retention period of their own.
    func retentions() async throws -> [String: Duration]
    /// Deletes at most `limit` rows per ``DeviceData/aged`` table of the device older than
    /// `before`, in one transaction, tallies kept. Returns the rows deleted per table.
    func sweep(device: String, before: Instant, limit: Int) async throws -> [String: Int]
    /// The device's rows per ``DeviceData/tables`` table, queued alerts and device row.
    func deviceRowCounts(device: String) async throws -> [String: Int]
    /// Erases everything of the device (revoked or not) in one transaction: the rows of every
    /// ``DeviceData/tables`` table, its queued alerts and its row. Returns the rows deleted per
    /// table, `nil` when no device has that name.
    func eraseDevice(named name: String) async throws -> [String: Int]?
}

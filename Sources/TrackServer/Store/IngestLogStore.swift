public import BackgroundCore

/// What ingest keeps beside the samples: the points it quarantined (with why) and the clients'
/// non-location messages.
public protocol IngestLogStore: Sendable {
    /// Keeps a point the server could not accept from a client that would delete it or block its
    /// queue on an error answer (OwnTracks, Traccar, Overland), with the reason, for the operator.
    func quarantine(device: String, source: IngestSource, reason: String, raw: String, at now: Instant) async throws
    /// The device's quarantined points, newest first, at most `limit`.
    func rejectedPoints(device: String, limit: Int) async throws -> [RejectedPoint]
    /// Stores a non-location message (OwnTracks `_type` other than location, Overland `trip`).
    func recordEvent(device: String, type: String, json: String, at now: Instant) async throws
    func eventCount(device: String) async throws -> Int
}

/// A point the server kept aside instead of storing, with why.
public struct RejectedPoint: Hashable, Sendable, Encodable {
    public var source: String
    public var reason: String
    /// The request as received (query and body), cut at 4 KiB.
    public var raw: String
    public var receivedAt: Int64

    public init(source: String, reason: String, raw: String, receivedAt: Int64) {
        self.source = source
        self.reason = reason
        self.raw = raw
        self.receivedAt = receivedAt
    }

    enum CodingKeys: String, CodingKey {
        case source, reason, raw
        case receivedAt = "received_at"
    }
}

public import BackgroundCore
public import LocationLog

/// Everything the server keeps: devices, operators, sessions, samples and non-location events.
///
/// The SQLite store is the embedded default; `PostgresTrackStore` (target TrackServerPostgres) lets
/// several servers share one database. Both pass the same contract suite (`StoreContract` in
/// Tests/TrackServerTests/Store). Every write that carries samples
/// is one transaction: when the method returns, the rows are committed, and when it throws,
/// nothing was written. Routes acknowledge only after it returned.
public protocol TrackStore: Sendable {
    /// Registers a device. Throws ``TrackStoreError/duplicateName(_:)`` if the name is taken.
    func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord
    /// Registers an operator. Throws ``TrackStoreError/duplicateName(_:)`` if the name is taken.
    func addOperator(name: String, tokenHash: String, at now: Instant) async throws
    /// Keeps a point the server could not accept from a client that would delete it or block its
    /// queue on an error answer (OwnTracks, Traccar, Overland), with the reason, for the operator.
    func quarantine(device: String, source: IngestSource, reason: String, raw: String, at now: Instant) async throws
    /// The device's quarantined points, newest first, at most `limit`.
    func rejectedPoints(device: String, limit: Int) async throws -> [RejectedPoint]
    /// Every operator, revoked ones included, sorted by name.
    func operators() async throws -> [OperatorRecord]
    /// Revokes an operator's token at once. False if there is no active operator of that name.
    func revokeOperator(named name: String, at now: Instant) async throws -> Bool
    /// Every device, revoked ones included, sorted by name.
    func devices() async throws -> [DeviceRecord]
    func device(named name: String) async throws -> DeviceRecord?
    /// Marks the device revoked: its token and sessions stop working and its share links are
    /// revoked with it. False if unknown or already revoked.
    func revokeDevice(named name: String, at now: Instant) async throws -> Bool
    /// Who owns the token hash, ignoring revoked devices and dead sessions at `now`.
    func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner?

    func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws
    /// The session with this token hash, live or not; `nil` if there never was one.
    func session(tokenHash: String) async throws -> SessionRecord?
    /// Moves the expiry of a live session and records the heartbeat as "seen".
    func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws
    func revokeSession(tokenHash: String, at now: Instant) async throws

    /// Stores samples in one transaction; a sample whose key the device already has is a duplicate.
    /// - Returns: the keys newly stored and the keys that were already there, in input order.
    func insert(_ samples: [TrackSample], device: String, at now: Instant) async throws -> InsertOutcome
    /// Stores the samples of several requests in one commit (the server's group commit), each
    /// request isolated from the others: a request whose rows fail (an unknown device, a
    /// constraint) gets its error and writes nothing, the others are stored. When it returns, every
    /// success is committed; when it throws, nothing was written.
    ///
    /// The other requests of the group ride on this call, so a store should finish it even when
    /// the calling task is cancelled. A store without a cheaper way conforms through the default,
    /// one ``insert(_:device:at:)`` (one transaction) per request.
    /// - Returns: one result per request, in input order.
    func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>]

    /// ``insertGroup(_:)`` with its answer given to `completion` (on any thread) instead of a
    /// caller's task: the group commit chains its commits through it, so the next group starts the
    /// moment one commits, without waiting for a task to be scheduled. The default runs
    /// ``insertGroup(_:)`` in a task; a store that commits on its own queue calls back from there.
    func insertGroup(
        _ requests: [GroupInsert], completion: @escaping @Sendable ([Result<InsertOutcome, any Error>]) -> Void)
    /// Samples of a device with `from <= time < to`, ordered by time; at most `limit` (the earliest)
    /// when a limit is given, so a reader can bound its memory.
    func samples(device: String, from: Instant, to: Instant, limit: Int?) async throws -> [TrackSample]
    /// The next page of a track read: up to `limit` points of the device with `from <= time < to`
    /// that come after `after` in (time, row) order, only the columns an export draws. A long range
    /// is read page by page, so a reader holds one page at a time whatever the range.
    func trackPage(device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int) async throws
        -> TrackPage
    /// How many samples the device holds with `from <= time < to`, counting no further than
    /// `atMost` (the index alone, no row read): a read over the limit is refused before it starts.
    func sampleCount(device: String, from: Instant, to: Instant, atMost: Int) async throws -> Int
    /// How many segments ``Gaps/segments(of:maximumGap:)`` would cut the range into (a new one
    /// wherever consecutive samples are more than `maximumGap` apart), without reading the rows.
    func segmentCount(device: String, from: Instant, to: Instant, maximumGap: Duration) async throws -> Int
    /// How many rows the device holds with `from <= time < to`, and how many distinct times among
    /// them, without reading the rows: `bgtrack load` checks every acknowledged sample is stored
    /// once (a time stored twice is a duplicate, a missing one a loss). Unknown device: zeros.
    func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally
    /// Sets the device's OwnTracks payload key (`nil` removes it): its `_type: "encrypted"`
    /// messages are decrypted with it. False if no device has that name.
    func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool
    /// The device's OwnTracks payload key, `nil` when none was set (or no such device).
    func ownTracksKey(device: String) async throws -> OwnTracksKey?
    /// Stores a non-location message (OwnTracks `_type` other than location, Overland `trip`).
    func recordEvent(device: String, type: String, json: String, at now: Instant) async throws
    func eventCount(device: String) async throws -> Int

    // Alerts (`serve --alert-webhook`): per-device thresholds, who is silent, and an outbox so a
    // restart neither repeats nor misses an alert.

    /// Sets the device's silence threshold (`nil`: the server's default). False if unknown.
    func setSilentAfter(device: String, _ threshold: Duration?) async throws -> Bool
    /// In one transaction: marks the device silent since `silentSince` (or heard from again when
    /// `nil`) and queues one delivery per target.
    func recordAlert(device: String, silentSince: Instant?, deliveries: [AlertDelivery], at now: Instant) async throws
    /// Queued deliveries whose next attempt is due at `now`, oldest first.
    func dueAlerts(at now: Instant, limit: Int) async throws -> [QueuedAlert]
    /// A delivery succeeded: it leaves the queue.
    func alertDelivered(id: Int64) async throws
    /// A delivery failed: it stays queued until `retryAt`.
    func alertFailed(id: Int64, error: String, retryAt: Instant) async throws

    // Share links, retention and erasure (issue 25): TrackStore+Lifecycle.swift, DeviceData.

    /// Stores a share link. Throws ``TrackStoreError/unknownDevice(_:)`` for an unknown or revoked device.
    func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink
    /// Every share link (of `device` when given), revoked and expired ones included, newest first.
    func shares(device: String?) async throws -> [ShareLink]
    /// The link with this secret hash, whatever its state; `nil` if there is none.
    func share(secretHash: String) async throws -> ShareLink?
    /// Counts one page served through the link.
    func countShareView(id: Int64, at now: Instant) async throws
    /// Revokes a link at once. False if no active link has that id.
    func revokeShare(id: Int64, at now: Instant) async throws -> Bool
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
    // Gap intervals (issue 24 item 3): why the phone took no samples, as it reported, and
    // (issue 37 item 3) why its uploads waited; one table, the reason tells the kind.

    /// Stores the phone's intervals in one transaction; an id the device already has is kept
    /// as it was (a re-sent batch). Throws ``TrackStoreError/unknownDevice(_:)``.
    func insertGaps(_ gaps: [IngestGap], device: String, at now: Instant) async throws
    /// The device's intervals of both kinds that overlap `from..<to` (`start < to` and
    /// `end > from`, or a zero-length one at `from`), ordered by start. Unknown device: none.
    /// A `no-network` stored from a phone before the split reads as an upload delay.
    func reportedIntervals(device: String, from: Instant, to: Instant) async throws -> [ReportedInterval]
    // Time zones (issue 37 item 2): where each sample's local day and time are read.

    /// The zones the device reported (oldest first) and the operator's override; none for an
    /// unknown device.
    func timeZones(device: String) async throws -> DeviceTimeZones
    /// Notes that the device's samples from `since` on were taken in `zone` (an IANA name already
    /// checked), unless that is the zone it reported for `since` already. Unknown device: nothing.
    func noteTimeZone(device: String, zone: String, since: Instant) async throws
    /// Sets (or with `nil` clears) the operator's zone for the device; `false` for an unknown device.
    func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool
}

extension TrackStore {
    // A store that keeps no zones (a test's wrapper): every device is in the server's zone.
    public func timeZones(device: String) async throws -> DeviceTimeZones { DeviceTimeZones() }
    public func noteTimeZone(device: String, zone: String, since: Instant) async throws {}
    public func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool {
        throw DataLifecycleError.unsupported("time zones")
    }

    /// The device's sampling gaps that overlap `from..<to`, ordered by start.
    public func gapIntervals(device: String, from: Instant, to: Instant) async throws -> [GapInterval] {
        try await reportedIntervals(device: device, from: from, to: to).compactMap(\.gap)
    }

    /// The device's upload delays that overlap `from..<to`, ordered by start.
    public func uploadDelays(device: String, from: Instant, to: Instant) async throws -> [UploadDelay] {
        try await reportedIntervals(device: device, from: from, to: to).compactMap(\.delay)
    }
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

/// An operator token's owner (the token itself is stored only as a hash).
public struct OperatorRecord: Hashable, Sendable {
    public var name: String
    public var createdAt: Instant
    public var revokedAt: Instant?

    public init(name: String, createdAt: Instant, revokedAt: Instant?) {
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// One alert for one target, as queued.
public struct AlertDelivery: Hashable, Sendable {
    /// `webhook <url>` or `command <shell command>`.
    public var target: String
    public var json: String

    public init(target: String, json: String) {
        self.target = target
        self.json = json
    }
}

/// A queued delivery with its attempts so far.
public struct QueuedAlert: Hashable, Sendable {
    public var id: Int64
    public var delivery: AlertDelivery
    public var attempts: Int

    public init(id: Int64, delivery: AlertDelivery, attempts: Int) {
        self.id = id
        self.delivery = delivery
        self.attempts = attempts
    }
}

extension TrackStore {
    /// Every sample of a device with `from <= time < to`, ordered by time.
    public func samples(device: String, from: Instant, to: Instant) async throws -> [TrackSample] {
        try await samples(device: device, from: from, to: to, limit: nil)
    }
}

extension TrackStore {
    /// The default reads the samples (correct for any store; the SQL stores count in the database).
    public func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally {
        let samples = try await samples(device: device, from: from, to: to, limit: nil)
        return SampleTally(rows: samples.count, distinctTimes: Set(samples.map(\.time)).count)
    }
}

/// What ``TrackStore/sampleTally(device:from:to:)`` counted.
public struct SampleTally: Hashable, Sendable {
    /// Rows stored.
    public var rows: Int
    /// Distinct sample times among them; fewer than `rows` when a time is stored more than once.
    public var distinctTimes: Int

    public init(rows: Int, distinctTimes: Int) {
        self.rows = rows
        self.distinctTimes = distinctTimes
    }
}

extension TrackStore {
    /// The default: ``insertGroup(_:)`` in a task; a thrown error answers every request with it.
    public func insertGroup(
        _ requests: [GroupInsert], completion: @escaping @Sendable ([Result<InsertOutcome, any Error>]) -> Void
    ) {
        Task {
            do {
                completion(try await insertGroup(requests))
            } catch {
                completion(Array(repeating: .failure(error), count: requests.count))
            }
        }
    }

    /// The default: ``insertEachAlone(_:)``.
    public func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        await insertEachAlone(requests)
    }

    /// One ``insert(_:device:at:)`` (one transaction) per request, in order: correct for any store,
    /// without the shared commit.
    public func insertEachAlone(_ requests: [GroupInsert]) async -> [Result<InsertOutcome, any Error>] {
        var results: [Result<InsertOutcome, any Error>] = []
        results.reserveCapacity(requests.count)
        for request in requests {
            do {
                results.append(.success(try await insert(request.samples, device: request.device, at: request.now)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}

/// One ingest request's share of a group commit: its samples, the device and when it arrived.
public struct GroupInsert: Sendable {
    public var samples: [TrackSample]
    public var device: String
    public var now: Instant

    public init(samples: [TrackSample], device: String, now: Instant) {
        self.samples = samples
        self.device = device
        self.now = now
    }
}

/// What ``TrackStore/insert(_:device:at:)`` did with each sample key.
public struct InsertOutcome: Hashable, Sendable {
    public var accepted: [String]
    public var duplicates: [String]

    public init(accepted: [String], duplicates: [String]) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}

/// Store failures that callers can act on.
public enum TrackStoreError: Error, Hashable, CustomStringConvertible {
    case duplicateName(String)
    case unknownDevice(String)

    public var description: String {
        switch self {
        case .duplicateName(let name):
            "the name \"\(name)\" is already registered; pick another name or revoke the old one first"
        case .unknownDevice(let name):
            "no device is registered as \"\(name)\"; add it with `bgtrack device add \(name)`"
        }
    }
}

import BackgroundCore
import Foundation
import TrackServer

/// A gate a test opens by hand: commits wait at it, so a test controls when a commit returns.
actor Gate {
    private var isOpen: Bool
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(open: Bool = false) { isOpen = open }

    func pass() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    func close() { isOpen = false }
}

/// What happened, in order: commits returning and clients hearing their answers.
actor EventLog {
    enum Event: Hashable {
        /// A store commit returned, holding these sample keys.
        case committed([String])
        /// A client received its answer for the request carrying this sample key.
        case answered(String)
        /// `insert` (one transaction for one request) was called with these sample keys.
        case singleInsert([String])
        /// A read returned this many sample rows (a track page, or `samples`).
        case rowsRead(Int)
    }

    private(set) var events: [Event] = []
    private var groupsEntered = 0

    func append(_ event: Event) { events.append(event) }

    /// The sizes of the groups committed, in order.
    var groupSizes: [Int] {
        events.compactMap { event in
            if case .committed(let keys) = event { return keys.count }
            return nil
        }
    }

    /// Where the commit holding `key` is in the log.
    func commitIndex(of key: String) -> Int? {
        events.firstIndex { event in
            if case .committed(let keys) = event { return keys.contains(key) }
            return false
        }
    }

    func answerIndex(of key: String) -> Int? { events.firstIndex(of: .answered(key)) }

    /// Sample rows the store's reads returned, in all.
    var rowsRead: Int {
        events.reduce(0) { total, event in
            if case .rowsRead(let count) = event { return total + count }
            return total
        }
    }

    func enterGroup() { groupsEntered += 1 }
    var entered: Int { groupsEntered }
}

/// The SQLite store with a gate in front of its commits: `insertGroup` and `insert` wait at the
/// gate, then commit, then log what they committed. With `readGate`, track pages wait at that
/// gate; reads log how many rows they returned. Every other method forwards unchanged
/// (GatedStore+Gaps, GatedStore+Rest).
struct GatedStore: TrackStore {
    let base: SQLiteTrackStore
    let gate: Gate
    let log: EventLog
    var readGate: Gate?

    func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int, content: TrackPage.Content
    ) async throws -> TrackPage {
        await readGate?.pass()
        let page = try await base.trackPage(
            device: device, from: from, to: to, after: after, limit: limit, content: content)
        await log.append(.rowsRead(page.points.count))
        return page
    }
    func sampleCount(device: String, from: Instant, to: Instant, atMost: Int) async throws -> Int {
        try await base.sampleCount(device: device, from: from, to: to, atMost: atMost)
    }
    func segmentCount(device: String, from: Instant, to: Instant, maximumGap: Duration) async throws -> Int {
        try await base.segmentCount(device: device, from: from, to: to, maximumGap: maximumGap)
    }

    func insertGroup(_ requests: [GroupInsert]) async throws -> [Result<InsertOutcome, any Error>] {
        await log.enterGroup()
        await gate.pass()
        let results = try await base.insertGroup(requests)
        await log.append(.committed(requests.flatMap { $0.samples.map(\.key) }))
        return results
    }

    func insert(_ samples: [TrackSample], device: String, at now: Instant) async throws -> InsertOutcome {
        await log.append(.singleInsert(samples.map(\.key)))
        await gate.pass()
        let outcome = try await base.insert(samples, device: device, at: now)
        await log.append(.committed(samples.map(\.key)))
        return outcome
    }

    func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord {
        try await base.addDevice(name: name, tokenHash: tokenHash, at: now)
    }
    func addOperator(name: String, tokenHash: String, at now: Instant) async throws {
        try await base.addOperator(name: name, tokenHash: tokenHash, at: now)
    }
    func quarantine(device: String, source: IngestSource, reason: String, raw: String, at now: Instant) async throws {
        try await base.quarantine(device: device, source: source, reason: reason, raw: raw, at: now)
    }
    func rejectedPoints(device: String, limit: Int) async throws -> [RejectedPoint] {
        try await base.rejectedPoints(device: device, limit: limit)
    }
    func operators() async throws -> [OperatorRecord] { try await base.operators() }
    func revokeOperator(named name: String, at now: Instant) async throws -> Bool {
        try await base.revokeOperator(named: name, at: now)
    }
    func devices() async throws -> [DeviceRecord] { try await base.devices() }
    func device(named name: String) async throws -> DeviceRecord? { try await base.device(named: name) }
    func revokeDevice(named name: String, at now: Instant) async throws -> Bool {
        try await base.revokeDevice(named: name, at: now)
    }
    func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner? {
        try await base.owner(ofTokenHash: hash, at: now)
    }
    func createSession(device: String, tokenHash: String, expiresAt: Instant, at now: Instant) async throws {
        try await base.createSession(device: device, tokenHash: tokenHash, expiresAt: expiresAt, at: now)
    }
    func session(tokenHash: String) async throws -> SessionRecord? { try await base.session(tokenHash: tokenHash) }
    func extendSession(tokenHash: String, to expiresAt: Instant, at now: Instant) async throws {
        try await base.extendSession(tokenHash: tokenHash, to: expiresAt, at: now)
    }
    func revokeSession(tokenHash: String, at now: Instant) async throws {
        try await base.revokeSession(tokenHash: tokenHash, at: now)
    }
    func samples(device: String, from: Instant, to: Instant, limit: Int?) async throws -> [TrackSample] {
        let samples = try await base.samples(device: device, from: from, to: to, limit: limit)
        await log.append(.rowsRead(samples.count))
        return samples
    }
    func recordEvent(device: String, type: String, json: String, at now: Instant) async throws {
        try await base.recordEvent(device: device, type: type, json: json, at: now)
    }
    func eventCount(device: String) async throws -> Int { try await base.eventCount(device: device) }
    func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool {
        try await base.setOwnTracksKey(device: device, key)
    }
    func ownTracksKey(device: String) async throws -> OwnTracksKey? { try await base.ownTracksKey(device: device) }
    func setSilentAfter(device: String, _ threshold: Duration?) async throws -> Bool {
        try await base.setSilentAfter(device: device, threshold)
    }
    func recordAlert(device: String, silentSince: Instant?, deliveries: [AlertDelivery], at now: Instant) async throws {
        try await base.recordAlert(device: device, silentSince: silentSince, deliveries: deliveries, at: now)
    }
    func dueAlerts(at now: Instant, limit: Int) async throws -> [QueuedAlert] {
        try await base.dueAlerts(at: now, limit: limit)
    }
    func alertDelivered(id: Int64) async throws { try await base.alertDelivered(id: id) }
    func alertFailed(id: Int64, error: String, retryAt: Instant) async throws {
        try await base.alertFailed(id: id, error: error, retryAt: retryAt)
    }
}

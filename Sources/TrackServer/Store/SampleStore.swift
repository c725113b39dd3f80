public import BackgroundCore
import LocationLog

/// The samples: stored in one transaction per request (or per group commit), read by time, page
/// by page, or counted without reading the rows.
///
/// Every write that carries samples is one transaction: when the method returns, the rows are
/// committed, and when it throws, nothing was written. Routes acknowledge only after it returned.
public protocol SampleStore: Sendable {
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
    /// that come after `after` in (time, row) order, with the fields `content` asks for. A long
    /// range is read page by page, so a reader holds one page at a time whatever the range.
    func trackPage(
        device: String, from: Instant, to: Instant, after: TrackPageKey?, limit: Int, content: TrackPage.Content
    ) async throws -> TrackPage
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
}

extension SampleStore {
    /// Every sample of a device with `from <= time < to`, ordered by time.
    public func samples(device: String, from: Instant, to: Instant) async throws -> [TrackSample] {
        try await samples(device: device, from: from, to: to, limit: nil)
    }
}

extension SampleStore {
    /// The default reads the samples (correct for any store; the SQL stores count in the database).
    public func sampleTally(device: String, from: Instant, to: Instant) async throws -> SampleTally {
        let samples = try await samples(device: device, from: from, to: to, limit: nil)
        return SampleTally(rows: samples.count, distinctTimes: Set(samples.map(\.time)).count)
    }
}

extension SampleStore {
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

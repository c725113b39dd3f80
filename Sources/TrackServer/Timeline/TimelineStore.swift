public import BackgroundCore
import LocationLog
public import TrackGeometry

/// Where the server keeps each device's timeline: the closed stays, trips and gaps, and the
/// detector's state, so a restart resumes it without re-reading history.
///
/// One of the resources of ``TrackStore``; both stores conform, and the contract suite
/// `TimelineStoreContract` runs on SQLite and PostgreSQL.
///
/// Every insert marks, in its own transaction, the stretch the saved timeline may not cover
/// (``timelinePending(device:)``): an import from its earliest row (no updater was told of it;
/// `bgtrack import` may even be another process), any other insert from its earliest row when
/// that is not newer than the newest sample the checkpoint took (newer rows are read when a
/// checkpoint is loaded). So whatever wrote the rows, the next read redoes that stretch.
public protocol TimelineStore: Sendable {
    /// The device's persisted ``TimelineBuilder`` (its JSON), `nil` before the first save.
    func timelineCheckpoint(device: String) async throws -> String?
    /// In one transaction: deletes the device's entries that start at or after `replacingFrom`
    /// and its resume points from then on (a rebuild), stores `closed`, saves the checkpoint with
    /// the newest sample time it took (`newest`), keeping it as a resume point too with
    /// `resumePoints`; and clears the pending stretch `consuming` was read as, unless an insert
    /// has marked it since (its version moved on).
    /// Throws ``TrackStoreError/unknownDevice(_:)`` for a device that is not registered.
    func saveTimeline(
        device: String, closed: [TimelineEntry], checkpoint: String, newest: Instant?, replacingFrom: Instant?,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws
    /// The device's latest resume point older than `before`: a builder saved after taking every
    /// sample up to its time (and none after), to rebuild from without re-reading what precedes.
    func timelineResumePoint(device: String, before: Instant) async throws -> TimelineCheckpoint?
    /// The device's resume points newer than `after`, oldest first, at most `limit`: what a
    /// rebuild compares its own with, to stop where it meets the saved timeline again.
    func timelineResumePoints(device: String, after: Instant, limit: Int) async throws -> [TimelineCheckpoint]
    /// In one transaction, a rebuild that met the saved timeline again: deletes the device's
    /// entries that start in `from..<entriesBefore` and its resume points in
    /// `from..<resumePointsBefore`, stores `closed` and `resumePoints`, leaves the checkpoint and
    /// everything later as it is, and clears the pending stretch `consuming` was read as, unless
    /// an insert has marked it since.
    /// Throws ``TrackStoreError/unknownDevice(_:)`` for a device that is not registered.
    func saveTimelineStretch(
        device: String, closed: [TimelineEntry], from: Instant, entriesBefore: Instant, resumePointsBefore: Instant,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws
    /// The stretch of the device's timeline that inserts marked to be redone, `nil` when none is.
    func timelinePending(device: String) async throws -> TimelinePending?
    /// Marks the device's timeline to be redone from `from` (or earlier, if marked so already), for
    /// samples up to `until`: what an updater owes and has not run yet outlives it (a restart
    /// before the rebuild).
    func markTimelinePending(device: String, from: Instant, until: Instant) async throws
    /// The device's closed entries that overlap `from..<to` (end ≥ from, start < to), in time order.
    func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry]
}

/// A stretch of a device's timeline to redo: from the earliest sample an insert stored where the
/// saved timeline may not cover it. `version` counts the inserts that marked it, so a rebuild
/// clears only what it read (``TimelineStore/saveTimeline(device:closed:checkpoint:newest:replacingFrom:resumePoints:consuming:)``).
public struct TimelinePending: Hashable, Sendable {
    public var from: Instant
    /// The newest sample any of the marking inserts stored; `nil` when one did not say (a mark
    /// from before `until_at`): a rebuild past it that meets the saved timeline again may stop,
    /// and without it reads to the device's newest sample.
    public var until: Instant?
    public var version: Int64

    public init(from: Instant, until: Instant? = nil, version: Int64) {
        self.from = from
        self.until = until
        self.version = version
    }
}

/// A saved ``TimelineBuilder`` (its JSON) and the newest sample time it had taken.
public struct TimelineCheckpoint: Hashable, Sendable {
    public var newest: Instant
    public var builder: String

    public init(newest: Instant, builder: String) {
        self.newest = newest
        self.builder = builder
    }
}

extension TimelineStore {
    /// Saves without a newest time (no resume point, inserts mark nothing against it) and clears
    /// nothing pending.
    public func saveTimeline(device: String, closed: [TimelineEntry], checkpoint: String, replacingFrom: Instant?)
        async throws
    {
        try await saveTimeline(
            device: device, closed: closed, checkpoint: checkpoint, newest: nil, replacingFrom: replacingFrom,
            resumePoints: [], consuming: nil)
    }
}

/// A timeline entry as a table row: the columns both stores share.
package struct TimelineRow: Hashable, Sendable {
    package var kind: String
    package var start: Int64
    package var end: Int64
    package var latitude: Double?
    package var longitude: Double?
    package var endLatitude: Double?
    package var endLongitude: Double?
    package var radius: Double?
    package var distance: Double?
    package var sampleCount: Int64?
    package var inferred: Bool?
    package var mode: String?

    package init(_ entry: TimelineEntry) {
        start = entry.start.milliseconds
        end = entry.end.milliseconds
        switch entry {
        case .stay(let stay):
            kind = "stay"
            latitude = stay.latitude
            longitude = stay.longitude
            radius = stay.radius
            sampleCount = Int64(stay.sampleCount)
            inferred = stay.inferred
        case .trip(let trip):
            kind = "trip"
            latitude = trip.startLatitude
            longitude = trip.startLongitude
            endLatitude = trip.endLatitude
            endLongitude = trip.endLongitude
            distance = trip.distance
            sampleCount = Int64(trip.sampleCount)
            mode = trip.mode.rawValue
        case .gap:
            kind = "gap"
        }
    }

    package init(
        kind: String, start: Int64, end: Int64, latitude: Double?, longitude: Double?, endLatitude: Double?,
        endLongitude: Double?, radius: Double?, distance: Double?, sampleCount: Int64?, inferred: Bool?,
        mode: String?
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.latitude = latitude
        self.longitude = longitude
        self.endLatitude = endLatitude
        self.endLongitude = endLongitude
        self.radius = radius
        self.distance = distance
        self.sampleCount = sampleCount
        self.inferred = inferred
        self.mode = mode
    }

    /// The entry, or `nil` for a row of an unknown kind (written by a newer server).
    package var entry: TimelineEntry? {
        let start = Instant(milliseconds: start)
        let end = Instant(milliseconds: end)
        switch kind {
        case "stay":
            return .stay(
                Stay(
                    start: start, end: end, latitude: latitude ?? 0, longitude: longitude ?? 0, radius: radius ?? 0,
                    sampleCount: Int(sampleCount ?? 0), inferred: inferred ?? false))
        case "trip":
            return .trip(
                Trip(
                    start: start, end: end, distance: distance ?? 0, sampleCount: Int(sampleCount ?? 0),
                    startLatitude: latitude ?? 0, startLongitude: longitude ?? 0, endLatitude: endLatitude ?? 0,
                    endLongitude: endLongitude ?? 0, mode: mode.flatMap(TravelMode.init(rawValue:))))
        case "gap":
            return .gap(TimelineGap(start: start, end: end))
        default:
            return nil
        }
    }
}

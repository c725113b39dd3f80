import BackgroundCore
import LocationLog
import TrackGeometry
import TrackServer

// The rest of the store forwards unchanged: shares, retention, zones, the timeline, map detail
// and imports.
extension GatedStore {
    func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink {
        try await base.createShare(share, at: now)
    }
    func shares(device: String?) async throws -> [ShareLink] { try await base.shares(device: device) }
    func share(secretHash: String) async throws -> ShareLink? { try await base.share(secretHash: secretHash) }
    func countShareView(id: Int64, at now: Instant) async throws { try await base.countShareView(id: id, at: now) }
    func revokeShare(id: Int64, at now: Instant) async throws -> Bool { try await base.revokeShare(id: id, at: now) }

    func setRetention(device: String, _ retention: Duration?) async throws -> Bool {
        try await base.setRetention(device: device, retention)
    }
    func retentions() async throws -> [String: Duration] { try await base.retentions() }
    func sweep(device: String, before: Instant, limit: Int) async throws -> [String: Int] {
        try await base.sweep(device: device, before: before, limit: limit)
    }
    func deviceRowCounts(device: String) async throws -> [String: Int] {
        try await base.deviceRowCounts(device: device)
    }
    func eraseDevice(named name: String) async throws -> [String: Int]? { try await base.eraseDevice(named: name) }

    func timeZones(device: String) async throws -> DeviceTimeZones { try await base.timeZones(device: device) }
    func noteTimeZone(device: String, zone: String, since: Instant) async throws {
        try await base.noteTimeZone(device: device, zone: zone, since: since)
    }
    func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool {
        try await base.setTimeZoneOverride(device: device, zone)
    }

    func timelineCheckpoint(device: String) async throws -> String? {
        try await base.timelineCheckpoint(device: device)
    }
    func saveTimeline(
        device: String, closed: [TimelineEntry], checkpoint: String, newest: Instant?, replacingFrom: Instant?,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        try await base.saveTimeline(
            device: device, closed: closed, checkpoint: checkpoint, newest: newest, replacingFrom: replacingFrom,
            resumePoints: resumePoints, consuming: consuming)
    }
    func timelineResumePoint(device: String, before: Instant) async throws -> TimelineCheckpoint? {
        try await base.timelineResumePoint(device: device, before: before)
    }
    func timelineResumePoints(device: String, after: Instant, limit: Int) async throws -> [TimelineCheckpoint] {
        try await base.timelineResumePoints(device: device, after: after, limit: limit)
    }
    func saveTimelineStretch(
        device: String, closed: [TimelineEntry], from: Instant, entriesBefore: Instant, resumePointsBefore: Instant,
        resumePoints: [TimelineCheckpoint], consuming: TimelinePending?
    ) async throws {
        try await base.saveTimelineStretch(
            device: device, closed: closed, from: from, entriesBefore: entriesBefore,
            resumePointsBefore: resumePointsBefore, resumePoints: resumePoints, consuming: consuming)
    }
    func timelinePending(device: String) async throws -> TimelinePending? {
        try await base.timelinePending(device: device)
    }
    func markTimelinePending(device: String, from: Instant, until: Instant) async throws {
        try await base.markTimelinePending(device: device, from: from, until: until)
    }
    func timelineEntries(device: String, from: Instant, to: Instant) async throws -> [TimelineEntry] {
        try await base.timelineEntries(device: device, from: from, to: to)
    }

    func useDetailRules(_ fingerprint: String) async throws -> Bool { try await base.useDetailRules(fingerprint) }
    func refreshDetail(
        device: String, from: Instant, to: Instant, rules: CleanupRules, maximumGap: Duration, dayLimit: Int
    ) async throws -> Int {
        try await base.refreshDetail(
            device: device, from: from, to: to, rules: rules, maximumGap: maximumGap, dayLimit: dayLimit)
    }
    func refreshPendingDetail(rules: CleanupRules, maximumGap: Duration, dayLimit: Int) async throws -> Int {
        try await base.refreshPendingDetail(rules: rules, maximumGap: maximumGap, dayLimit: dayLimit)
    }
    func pendingDetailDays() async throws -> Int { try await base.pendingDetailDays() }
    func drawnCount(device: String, from: Instant, to: Instant, zoom: Int, atMost: Int) async throws -> Int {
        try await base.drawnCount(device: device, from: from, to: to, zoom: zoom, atMost: atMost)
    }
    func drawnPage(device: String, from: Instant, to: Instant, zoom: Int, after: TrackPageKey?, limit: Int)
        async throws -> DrawnPage
    {
        try await base.drawnPage(device: device, from: from, to: to, zoom: zoom, after: after, limit: limit)
    }
    func flaggedPoints(device: String, from: Instant, to: Instant, limit: Int) async throws -> [FlaggedPoint] {
        try await base.flaggedPoints(device: device, from: from, to: to, limit: limit)
    }
    func flagTally() async throws -> [SampleFlag: Int] { try await base.flagTally() }

    func importCheckpoint(device: String, fingerprint: String) async throws -> ImportCheckpoint? {
        try await base.importCheckpoint(device: device, fingerprint: fingerprint)
    }
    func commitImport(_ samples: [TrackSample], device: String, checkpoint: ImportCheckpoint, at now: Instant)
        async throws -> Int
    {
        try await base.commitImport(samples, device: device, checkpoint: checkpoint, at: now)
    }
}

public import BackgroundCore

/// Turns time-ordered samples into stays, trips and gaps as they arrive, one sample at a time.
///
/// A sans-IO machine: `add(_:)` takes the next sample and returns the entries it closed; the
/// caller stores them. The open stay or trip is never returned by `add` (it may still grow);
/// `provisional` shows it, `finish()` closes it. The state is `Codable`, so a server persists it
/// beside the closed entries and resumes without re-reading history.
///
/// Rules, for 2-3 minute sampling with gaps:
/// - a stay is `minimumStay` or longer within `stayRadius` of one place: while it is a candidate,
///   of both its running centre and its first sample; once open, of its centre at that moment,
///   which stays put (a slow walk does not drag it along);
/// - a trip is the movement between two stays, measured along its samples; a stay's last samples
///   that measured the person moving, inside the radius, begin the trip that leaves it;
/// - two samples more than `gapThreshold` apart are a gap. With the same position at both ends
///   (within the stay radius) the stay continues across it, marked inferred (unless
///   `infersStaysAcrossGaps` is off); otherwise the gap is its own entry, never a trip, unless the
///   samples before it were at rest and it is no longer than `restingSilence`: then the stay lasts
///   until the first sample away (marked inferred).
///
/// ```swift
/// var builder = TimelineBuilder(settings: .sampling(every: .seconds(120)))
/// for sample in samples { closed += builder.add(SampleValues(sample)) }
/// closed += builder.finish()
/// ```
public struct TimelineBuilder: Sendable {
    public var settings: TimelineSettings
    private var state: State = .empty
    /// The newest sample seen, accurate or not: a gap is measured from here.
    private var lastTime: Int64?

    private enum State: Hashable, Sendable, Codable {
        case empty
        /// No stay open: the trip so far (`nil` before the first point left the candidate) and
        /// the trailing points that may become a stay.
        case moving(trip: OpenTrip?, candidate: StayCluster)
        /// A stay is open.
        case staying(StayCluster)
    }

    public init(settings: TimelineSettings = TimelineSettings()) {
        self.settings = settings
    }

    /// The time of the newest sample taken; an older one is ignored by `add`.
    public var newestTime: Instant? { lastTime.map(Instant.init(milliseconds:)) }

    /// Takes the next sample and returns the entries it closed, oldest first.
    ///
    /// A sample not newer than the newest one seen is ignored (returns nothing): a late sample
    /// needs a rebuild from a checkpoint before it (see `TimelineStore` on the server).
    public mutating func add(_ point: SampleValues) -> [TimelineEntry] {
        if let lastTime, point.time.milliseconds <= lastTime { return [] }
        let previous = lastTime
        lastTime = point.time.milliseconds
        guard (point.accuracy ?? 0) <= settings.worstAccuracy, !isAmbiguous(point) else { return [] }
        let gapped = previous.map { point.time.milliseconds - $0 > settings.gapThreshold.wholeMilliseconds } ?? false
        var closed: [TimelineEntry] = []
        switch state {
        case .empty:
            state = .moving(trip: nil, candidate: StayCluster(point))
        case .staying(let open):
            closed += stay(open, point: point, gapFrom: gapped ? previous : nil)
        case .moving(let trip, let candidate):
            closed += move(trip: trip, candidate: candidate, point: point, gapFrom: gapped ? previous : nil)
        }
        return closed
    }

    /// Takes a sample while a stay is open: it stays, or the stay closes (and a trip or a gap begins).
    private mutating func stay(_ stay: StayCluster, point: SampleValues, gapFrom: Int64?) -> [TimelineEntry] {
        var stay = stay
        let gapped = gapFrom != nil
        if stay.holds(point, radius: settings.stayRadius), !gapped || settings.infersStaysAcrossGaps {
            stay.inferred = stay.inferred || gapped
            stay.appendToStay(point)
            state = .staying(stay)
            return []
        }
        if let gapFrom {
            state = .moving(trip: nil, candidate: StayCluster(point))
            if stay.departing.isEmpty, isRestingSilence(from: gapFrom, to: point) {
                // The person stayed until they left, which the first sample away dates: at its
                // measured speed they left its distance before it (never before the silence
                // began); without one, at it. The trip runs from the place to it.
                var departed = point.time.milliseconds
                if let speed = point.speed, speed >= OpenTrip.movingSpeed {
                    departed = stay.departure(seenBy: point, at: speed, notBefore: gapFrom)
                }
                stay.inferred = true
                stay.last.time.milliseconds = departed
                state = .moving(trip: OpenTrip(stay.centre(at: departed)), candidate: StayCluster(point))
                return [.stay(stay.stay)]
            }
            return [.stay(stay.stay), .gap(TimelineGap(start: Instant(milliseconds: gapFrom), end: point.time))]
        }
        // The stay's last samples that measured the person moving were the way out: the trip
        // starts at the centre when the person was last settled and runs through them.
        let (settled, departing) = stay.leaving()
        var trip = OpenTrip(settled.centre(at: settled.last.time.milliseconds))
        for point in departing { trip.append(point) }
        state = .moving(trip: trip, candidate: StayCluster(point))
        return [.stay(settled.stay)]
    }

    /// Whether the silence from `gapFrom` to `point` is short enough to be time at rest
    /// (``TimelineSettings/restingSilence``).
    private func isRestingSilence(from gapFrom: Int64, to point: SampleValues) -> Bool {
        settings.infersStaysAcrossGaps && point.time.milliseconds - gapFrom <= settings.restingSilence.wholeMilliseconds
    }

    /// Whether the candidate's only sample came at walking pace from the one before, itself
    /// within half the gap threshold: a person slowing to a stop while the phone sampled steadily,
    /// so its falling silent after is a change (indoors, or iOS pausing updates at rest), not the
    /// sparse fixes of significant-change monitoring, silent while a bicycle or car moves on.
    private func arrivedSampling(_ trip: OpenTrip?, _ candidate: StayCluster) -> Bool {
        guard let trip else { return false }
        let milliseconds = candidate.first.time.milliseconds - trip.last.time.milliseconds
        guard milliseconds > 0, milliseconds <= settings.gapThreshold.wholeMilliseconds / 2 else { return false }
        return trip.last.distance(to: candidate.first) / (Double(milliseconds) / 1000) <= Self.walkingPace
    }

    /// The fastest approach (m/s) a single sample at rest may have come at (a brisk walk).
    static let walkingPace = 2.0

    /// A fix coarser than the stay radius (a significant-change or region fix, 100-200 m) whose
    /// accuracy circle still reaches the open stay or candidate cannot tell whether the person
    /// left: it neither ends the stay nor pulls the candidate apart, and like a fix worse than
    /// `worstAccuracy` it only shows the phone was sampling.
    private func isAmbiguous(_ point: SampleValues) -> Bool {
        guard let accuracy = point.accuracy, accuracy > settings.stayRadius else { return false }
        let place: StayCluster
        switch state {
        case .empty: return false
        case .staying(let stay): place = stay
        case .moving(_, let candidate): place = candidate
        }
        return place.distance(to: point) <= settings.stayRadius + accuracy
    }

    /// An accurate fix at rest arriving at a candidate made only of coarse fixes (a significant
    /// change on arrival, 100-200 m accurate) whose accuracy circles all reach it does not show the
    /// person moved on: it joins them, as a coarse fix that may still be here does not split a
    /// stay (``isAmbiguous(_:)``), so the stay starts at the first fix of the arrival.
    private func mayBeWhereTheCoarseFixesWere(_ candidate: StayCluster, _ point: SampleValues) -> Bool {
        guard !point.measuredMoving, (point.accuracy ?? 0) <= settings.stayRadius else { return false }
        return candidate.points.allSatisfy { member in
            guard let accuracy = member.accuracy, accuracy > settings.stayRadius else { return false }
            return member.distance(to: point) <= settings.stayRadius + accuracy
        }
    }

    private mutating func move(trip: OpenTrip?, candidate: StayCluster, point: SampleValues, gapFrom: Int64?)
        -> [TimelineEntry]
    {
        let gapped = gapFrom != nil
        var trip = trip
        var candidate = candidate
        var closed: [TimelineEntry] = []
        // A silence whose two ends (the last sample before it and this one) are within the stay
        // radius of each other is a stay inferred across it; the samples before it that this one
        // is out of reach of were on the way in, and go to the trip.
        let sameEnds = settings.infersStaysAcrossGaps && candidate.last.distance(to: point) <= settings.stayRadius
        if let gapFrom, !sameEnds, !candidate.last.measuredMoving, isRestingSilence(from: gapFrom, to: point),
            point.time - candidate.first.time >= settings.minimumStay,
            candidate.count > 1 || arrivedSampling(trip, candidate)
        {
            // At rest until the phone fell silent, seen next away: the candidate was a stay that
            // lasted until this sample (the departure rule below, across a resting silence).
            closed += open(candidate, reachedBy: trip)
            guard case .staying(let opened) = state else { return closed }
            return closed + stay(opened, point: point, gapFrom: gapFrom)
        }
        if gapped, !sameEnds {
            for member in candidate.points { trip = Self.extend(trip, with: member) }
            if let finished = trip?.trip { closed.append(.trip(finished)) }
            closed.append(
                .gap(
                    TimelineGap(
                        start: Instant(milliseconds: gapFrom ?? candidate.last.time.milliseconds), end: point.time)))
            state = .moving(trip: nil, candidate: StayCluster(point))
            return closed
        }
        if !gapped, candidate.count > 1, !candidate.first.measuredMoving, !candidate.last.measuredMoving,
            !candidate.holds(point, radius: settings.stayRadius),
            point.time - candidate.first.time >= settings.minimumStay,
            candidate.duration >= settings.minimumStay || candidate.spread <= settings.stayRadius / 2
        {
            // The person was here from the candidate's first sample until some time after its
            // last, and this sample, out of reach, is the first that shows them gone: with it the
            // time here is the minimum, so the candidate was a stay (with 2-3 minute sampling the
            // last sample inside may come up to an interval before the departure). It closes now.
            // Not when a speed shows the person walking in or out inside the radius: then the
            // time at rest is known, and a shop stop of 8 minutes is no stay. Nor, when only this
            // sample completes the minimum, if the samples inside spread over more than half the
            // radius: someone at rest is seen within GPS noise of one spot, someone wandering
            // about scatters over the circle (docs/timeline-evaluation.md, "What changed because
            // of it").
            closed += open(candidate, reachedBy: trip)
            guard case .staying(let opened) = state else { return closed }
            return closed + stay(opened, point: point, gapFrom: nil)
        }
        if gapped {
            while candidate.count > 1, !candidate.holds(point, radius: settings.stayRadius) {
                trip = Self.extend(trip, with: candidate.dropFirst())
            }
            candidate.inferred = true
        } else if !mayBeWhereTheCoarseFixesWere(candidate, point) {
            // Leading points that the new one pulls out of reach leave the candidate for the trip.
            while candidate.count > 0, !candidate.holds(point, radius: settings.stayRadius) {
                guard candidate.count > 1 else {
                    trip = Self.extend(trip, with: candidate.points[0])
                    candidate = StayCluster(point)
                    state = .moving(trip: trip, candidate: candidate)
                    return closed
                }
                trip = Self.extend(trip, with: candidate.dropFirst())
            }
        }
        let longEnoughBefore = candidate.duration >= settings.minimumStay
        candidate.append(point, keepingPoints: true)
        // A sample that measured the person moving may be leaving the place: it cannot be the one
        // that makes 10 minutes there (a stop of 8 minutes, walked into and out of inside the
        // radius). The next sample decides: out of reach, there was no stay; still here, the
        // stay completes (someone pacing, or a speed reported at rest, still stays: without this
        // the candidate would never close and keep every sample).
        if candidate.duration >= settings.minimumStay, !point.measuredMoving || longEnoughBefore {
            closed += open(candidate, reachedBy: trip)
        } else {
            state = .moving(trip: trip, candidate: candidate)
        }
        return closed
    }

    /// Opens the candidate as a stay, closing the trip that reached it.
    ///
    /// The first samples that measured the person moving (at most two) were still on the way in:
    /// the trip runs through them to the centre, reached when the stay starts (its first sample),
    /// instead of a straight line from the last sample out of reach; the centre is where the
    /// person came to rest, without them.
    private mutating func open(_ candidate: StayCluster, reachedBy trip: OpenTrip?) -> [TimelineEntry] {
        var candidate = candidate
        var closed: [TimelineEntry] = []
        if var reaching = trip {
            let walkingIn = candidate.points.prefix(while: \.measuredMoving).prefix(StayCluster.departingMemory)
            candidate.leaveOutOfCentre(walkingIn.count)
            for point in walkingIn { reaching.append(point) }
            reaching.append(candidate.centre(at: candidate.first.time.milliseconds))
            if let finished = reaching.trip { closed.append(.trip(finished)) }
        }
        candidate.points = []
        candidate.anchor()
        state = .staying(candidate)
        return closed
    }

    private static func extend(_ trip: OpenTrip?, with point: SampleValues) -> OpenTrip {
        guard var trip else { return OpenTrip(point) }
        trip.append(point)
        return trip
    }

    /// Closes the open stay or trip (the end of the data) and returns it; the builder is empty after.
    public mutating func finish() -> [TimelineEntry] {
        defer { state = .empty }
        switch state {
        case .empty:
            return []
        case .staying(let stay):
            return [.stay(stay.stay)]
        case .moving(var trip, let candidate):
            for member in candidate.points { trip = Self.extend(trip, with: member) }
            return trip?.trip.map { [.trip($0)] } ?? []
        }
    }

    /// What `finish()` would return now, without closing anything: the open stay or trip.
    public var provisional: [TimelineEntry] {
        var copy = self
        return copy.finish()
    }

    /// Where the open part begins: entries that end after this may still change, earlier ones not.
    public var openSince: Instant? {
        switch state {
        case .empty: nil
        case .staying(let stay): stay.first.time
        case .moving(let trip, let candidate): (trip?.first ?? candidate.first).time
        }
    }
}

extension TimelineBuilder: Codable {
    enum CodingKeys: String, CodingKey { case state, lastTime, version }

    /// The persisted form's version: 2 since held points are `SampleValues` under their wire keys
    /// (`speed`, where version 1's points said `spd`).
    static let version = 2

    /// Resumes a persisted builder. The settings are not persisted (an operator may change them);
    /// set `settings` after decoding.
    /// - Throws: `DecodingError` for a builder persisted by another version, which the server
    ///   answers by rebuilding the device's timeline from its samples.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "timeline state version \(version), expected \(Self.version)")
        }
        settings = TimelineSettings()
        state = try container.decode(State.self, forKey: .state)
        lastTime = try container.decodeIfPresent(Int64.self, forKey: .lastTime)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(lastTime, forKey: .lastTime)
    }
}

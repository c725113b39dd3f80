import BackgroundCore

/// The motion coprocessor and the app's `CMMotionActivityManager` updates
/// (docs/ios-policy.md §Motion): the coprocessor classifies what the person does from the scenario's truth and
/// reports a new activity `motion.detection-latency` after it began (a change that lasts less
/// than that is never reported). The app's handler hears the newest activity when it starts
/// updates and at every change, only while its process runs: a suspended app hears nothing, and
/// hears the newest activity when it runs again. Updates end with the process.
///
/// The coprocessor is always on, whether any app listens or not: it adds no energy of its own
/// (the app pays the CPU of each event it handles, as for every event).
struct MotionCoprocessor: Sendable {
    /// What the coprocessor reports now; `nil` before the day's first report.
    private(set) var reported: MotionActivity?
    /// The app's process started activity updates and has not stopped them.
    private(set) var updating = false
    /// What this process's handler last received.
    private var delivered: MotionActivity?

    mutating func detected(_ activity: MotionActivity) { reported = activity }

    /// `startActivityUpdates(to:withHandler:)`: `true` if updates were not running.
    mutating func start() -> Bool {
        defer { updating = true }
        return !updating
    }

    mutating func stop() {
        updating = false
        delivered = nil
    }

    /// The process died: its handler went with it.
    mutating func processEnded() { stop() }

    /// The activity the running app's handler has not heard yet, if any (marked heard).
    mutating func takeUndelivered() -> MotionActivity? {
        guard updating, let reported, reported != delivered else { return nil }
        delivered = reported
        return reported
    }

    /// How the coprocessor classifies motion at `speed` m/s (underground: a train, automotive).
    static func kind(speed: Double, moving: Bool, underground: Bool) -> MotionActivity.Kind {
        guard moving else { return .stationary }
        if underground { return .automotive }
        switch speed {
        case ..<2.5: return .walking
        case ..<4: return .running
        case ..<7: return .cycling
        default: return .automotive
        }
    }

    /// When the coprocessor reports each new activity through the track: the first at the
    /// track's start, each later one `latency` after a change that lasted at least that long.
    static func reports(for track: MovementTrack, latency: Duration) -> [(at: Instant, activity: MotionActivity)] {
        var runs: [(start: Instant, end: Instant, kind: MotionActivity.Kind)] = []
        for segment in track.segments {
            let speed = segment.from.distance(to: segment.to) / max(0.001, (segment.end - segment.start).seconds)
            let kind = kind(speed: speed, moving: !segment.isStay, underground: segment.underground)
            if let last = runs.last, last.kind == kind {
                runs[runs.count - 1].end = segment.end
            } else if segment.end > segment.start {
                runs.append((segment.start, segment.end, kind))
            }
        }
        var reports: [(at: Instant, activity: MotionActivity)] = []
        for (index, run) in runs.enumerated() {
            // What the person does when the day begins is known at once.
            let atStart = run.start <= track.start
            let lasting = atStart || index == runs.count - 1 || run.end - run.start >= latency
            guard lasting, reports.last?.activity.kind != run.kind else { continue }
            let at = atStart ? track.start : run.start + latency
            reports.append((at, MotionActivity(run.kind, confidence: .high)))
        }
        return reports
    }
}

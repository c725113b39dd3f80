package import BackgroundCore
import Foundation
package import LocationLog

/// The Linux device's main loop, minus the sleeping: take a fix when a slot wants one, store
/// it, let the sync engine upload, and say when to come back.
///
/// `bgtrack device` calls `step()` and sleeps until the instant it returns (on a wall clock sped
/// up by `--speedup`); tests call it on virtual time. Nothing here reads a clock.
///
/// ```swift
/// let loop = DeviceLoop(recorder: recorder, sync: engine, player: .synthetic(start: now), now: clock)
/// while true { let next = await loop.step(); /* sleep until next */ }
/// ```
package actor DeviceLoop {
    private var recorder: SampleRecorder
    package let sync: SyncEngine
    package let player: RoutePlayer
    private let now: @Sendable () -> Instant
    private let report: @Sendable (String) -> Void
    private var started = false
    private var noticesShown = 0
    /// Counters for the status line and tests.
    package private(set) var stored = 0
    package private(set) var uploaded = 0
    package private(set) var rejected = 0

    /// - Parameters:
    ///   - report: receives one human-readable line per event worth telling (never the token).
    package init(
        recorder: SampleRecorder, sync: SyncEngine, player: RoutePlayer, now: @escaping @Sendable () -> Instant,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.recorder = recorder
        self.sync = sync
        self.player = player
        self.now = now
        self.report = report
    }

    /// Runs what is due now and returns when the next step is due (at least 1 s later).
    package func step() async -> Instant {
        let now = now()
        if !started {
            recorder.start(at: now)
            started = true
        }
        if recorder.wantsFix(at: now) {
            switch recorder.record(player.fix(at: now), trigger: .timer, state: .background, at: now) {
            case .stored(let sample):
                stored += 1
                report(
                    "stored sample seq \(sample.seq) at \(sample.time.iso8601) (\(sample.latitude), \(sample.longitude))"
                )
            case .rejected(let why):
                rejected += 1
                report("fix rejected: \(why)")
            case .notStored(let error):
                report("sample not stored: \(error)")
            case .surplus, .paused:
                break
            }
            for notice in recorder.takeNotices() { report("NOTICE: \(notice.message)") }
        }
        do {
            let result = try await sync.wake(backgroundTimeRemaining: nil)
            uploaded += result.deleted
            // Rows deleted: the store took a write, so a pause for a full disk need not wait out its retry.
            if result.deleted > 0 { recorder.resume(at: now) }
            for outcome in result.outcomes {
                report("upload: \(outcome.summary)")
                // The reasons, not only a count: the user has to fix the route or the clock.
                if case .acknowledged(let ack) = outcome {
                    for (id, reason) in ack.rejected.sorted(by: { $0.key.uuidString < $1.key.uuidString }).prefix(10) {
                        report("  rejected \(id.uuidString.prefix(8)): \(reason)")
                    }
                    if ack.rejected.count > 10 { report("  … and \(ack.rejected.count - 10) more rejected") }
                }
            }
            let notices = await sync.notices
            for notice in notices.dropFirst(noticesShown) { report("NOTICE: \(notice.message)") }
            noticesShown = notices.count
        } catch {
            report("sync: \(error)")
        }
        var next = recorder.sampling.nextSlot(after: now)
        if let paused = recorder.pausedUntil { next = max(next, paused) }
        if let wake = try? await sync.nextWake() { next = min(next, wake) }
        return max(next, now + .seconds(1))
    }
}

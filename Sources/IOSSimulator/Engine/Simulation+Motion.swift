import BackgroundCore

extension Simulation {
    /// `startActivityUpdates(to:withHandler:)`: the app's backend crashed the app already if it
    /// started them without `NSMotionUsageDescription` (docs/ios-policy.md §Motion).
    mutating func startMotionUpdates() {
        guard profile.duration(.motionDetectionLatency) > .zero, configuration.motion != .unavailable else {
            noteMotionOnce("motion updates not started: no motion coprocessor (isActivityAvailable() is false)")
            return
        }
        guard configuration.motion == .authorized else {
            // Denied in Settings › Privacy › Motion & Fitness: the handler is never called.
            noteMotionOnce("motion updates deliver nothing: Motion & Fitness is denied for the app")
            return
        }
        // The handler hears the current activity soon after the start, once the app code returns.
        if motion.start() { queue.push(.motionDelivery, at: now) }
    }

    /// Hands the running app's handler the newest activity it has not heard; a suspended or
    /// terminated app hears nothing now, and the newest activity when it runs again.
    mutating func deliverMotion() {
        guard isRunning, let activity = motion.takeUndelivered() else { return }
        report.motionActivities += 1
        report.note(now, "motion activity: \(activity.kind.rawValue)")
        deliver(.motionActivity(activity))
        afterAppCode()
    }

    /// A suspended app runs again: what the coprocessor reported meanwhile reaches it.
    mutating func resumeMotion() {
        if motion.updating { queue.push(.motionDelivery, at: now) }
    }

    private mutating func noteMotionOnce(_ text: String) {
        guard !report.motionNoted else { return }
        report.motionNoted = true
        report.note(now, text)
    }
}

import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import CoreMotion
#else
    import ShadowCoreMotion
#endif

/// Core Motion for the shell: the coprocessor's activity updates, which tell `adaptive` that the
/// user set off before the samples can (docs/ios-policy.md §Motion).
///
/// Started only where iOS lets it run: the app's `Info.plist` has `NSMotionUsageDescription`
/// (without it iOS crashes the app when updates start), the device has a coprocessor
/// (`isActivityAvailable()`), and the user has not denied or been restricted from Motion &
/// Fitness. Otherwise nothing starts and the strategy decides from the samples alone. The
/// handler runs on the main queue and hands each activity to the keep-alive machine, as the
/// location delegate does with fixes.
@MainActor
final class MotionAdapter {
    private weak var shell: Tracker?
    private var manager: CMMotionActivityManager?
    /// Why updates were not started was said once in this process.
    private var reportedRefusal = false

    init(shell: Tracker) {
        self.shell = shell
    }

    func start() {
        guard manager == nil, let shell else { return }
        guard shell.appInfo.hasMotionUsage else {
            refused(
                "motion activity wanted, but the app's Info.plist has no NSMotionUsageDescription (iOS would crash "
                    + "the app): add it to let the library notice when the user sets off")
            return
        }
        guard CMMotionActivityManager.isActivityAvailable() else {
            refused("motion activity is not available on this device; the samples alone decide")
            return
        }
        let status = CMMotionActivityManager.authorizationStatus()
        guard status != .denied, status != .restricted else {
            refused("Motion & Fitness is denied for the app; the samples alone decide")
            return
        }
        let manager = CMMotionActivityManager()
        self.manager = manager
        manager.startActivityUpdates(to: OperationQueue.main) { [weak self] activity in
            guard let activity else { return }
            let motion = MotionActivity(coreMotion: activity)
            MainActor.assumeIsolated { self?.shell?.deliver(.motionActivity(motion)) }
        }
    }

    func stop() {
        manager?.stopActivityUpdates()
        manager = nil
    }

    private func refused(_ message: String) {
        guard !reportedRefusal else { return }
        reportedRefusal = true
        shell?.log(.info, message)
    }
}

extension MotionActivity {
    /// Core Motion's flags as one kind: a moving one wins over `stationary` (a car stopped at a
    /// light reports both), `unknown` when none is set.
    init(coreMotion activity: CMMotionActivity) {
        let kind: Kind
        if activity.automotive {
            kind = .automotive
        } else if activity.cycling {
            kind = .cycling
        } else if activity.running {
            kind = .running
        } else if activity.walking {
            kind = .walking
        } else if activity.stationary {
            kind = .stationary
        } else {
            kind = .unknown
        }
        let confidence: Confidence
        switch activity.confidence {
        case .high: confidence = .high
        case .medium: confidence = .medium
        default: confidence = .low
        }
        self.init(kind, confidence: confidence)
    }
}

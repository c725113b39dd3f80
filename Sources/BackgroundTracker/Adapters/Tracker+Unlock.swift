import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import UIKit
#else
    import ShadowUIKit
#endif

/// Before the first unlock after a reboot, a location event can relaunch the app while its files
/// (class `completeUntilFirstUserAuthentication`) cannot be opened: not the store, not the state
/// file, not the Keychain's token. The tracker then runs on a held store of its own, a new file
/// of class `completeUnlessOpen` (which iOS lets an app create while the phone is locked and
/// use while it stays open), keeps tracking as its launch flags say, uploads nothing, and at the
/// first unlock moves the held samples into the store (docs/ios-policy.md §Protection).
extension Tracker {
    /// Whether this process began before the first unlock and still runs on a held store.
    public var isWaitingForFirstUnlock: Bool { heldStore != nil }

    /// Forward from `applicationProtectedDataDidBecomeAvailable(_:)` (the tracker also observes
    /// `UIApplication.protectedDataDidBecomeAvailableNotification` itself, and checks at each
    /// return to the foreground; calling it more than once does nothing). The first unlock after
    /// a reboot: the store opens, the samples taken before it move in, uploads resume.
    ///
    /// - Parameter configuration: the app's settings read again now that they can be (its
    ///   `UserDefaults` and Keychain were closed too): the server, token and session token are
    ///   taken from it; the strategy that runs changes at the next launch.
    public func protectedDataDidBecomeAvailable(configuration: Configuration? = nil) {
        guard heldStore != nil, UIApplication.shared.isProtectedDataAvailable else { return }
        if let fresh = configuration {
            self.configuration.server = fresh.server
            self.configuration.token = fresh.token
            self.configuration.sessionToken = fresh.sessionToken
        }
        let main: LocationStore
        do {
            main = try openStore()
        } catch {
            // Still closed (the notification came early): the next event tries again.
            log(.error, "the store could not be opened after the first unlock: \(error)")
            return
        }
        let (saved, problem) = ShellState.load(from: Self.stateFile(in: directory))
        // What this process learnt while locked wins; what only the file knew is kept.
        var merged = saved
        merged.tracking = state.tracking
        merged.activitySession = state.activitySession
        merged.deadManDueMilliseconds = state.deadManDueMilliseconds ?? saved.deadManDueMilliseconds
        state = merged
        if let problem {
            stateUnreadable = FileManager.default.fileExists(atPath: Self.stateFile(in: directory).path)
            status.lastProblem = problem
        }
        // The held store closes with its last reference, before its file is moved and removed.
        store = main
        heldStore = nil
        let moved = HeldStores.moveAll(in: directory, into: main, log: { [weak self] in self?.log(.error, $0) })
        if let rebuilt = try? SyncDriver(
            store: main, device: device, configuration: self.configuration.sync,
            seed: UInt64(truncatingIfNeeded: clock.now.milliseconds))
        {
            sync = rebuilt
        }
        log(.info, "first unlock since the reboot: \(moved) sample(s) taken before it moved into the store")
        try? StoreLocation.createDirectory(directory.appendingPathComponent("uploads"))
        saveState()
        reconcileUploads()
        publish()
        // Uploads and (with a session token) heartbeats start now, with the app's credentials.
        credentialsChanged(token: self.configuration.token, sessionToken: self.configuration.sessionToken)
    }
}

/// The held stores: one file per process launched before the first unlock, in `held/`.
enum HeldStores {
    static func directory(in directory: URL) -> URL { directory.appendingPathComponent("held", isDirectory: true) }

    /// A new held store for this process (``StoreLocation/heldProtection``).
    static func create(in directory: URL, now: Instant) throws -> LocationStore {
        try StoreLocation.createHeldStore(in: Self.directory(in: directory), now: now)
    }

    /// The held files left by processes that ran before a first unlock.
    static func files(in directory: URL) -> [URL] {
        let folder = Self.directory(in: directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("held-") && $0.hasSuffix(".sqlite") }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    /// Moves the samples of every held file into `store`, in time order, and deletes the files
    /// once their samples are in (a file that cannot be read is kept for the next launch).
    /// Returns how many moved.
    ///
    /// A held store exists only if the app ran before a first unlock: the phone had restarted
    /// since the store's last sample (written after an unlock). The silence until the first held
    /// sample is a gap with that cause.
    @discardableResult
    static func moveAll(in directory: URL, into store: LocationStore, log: (String) -> Void) -> Int {
        // One file per process launched before the unlock: in the order they ran.
        var processes: [(file: URL, samples: [Sample])] = []
        for file in files(in: directory) {
            do {
                let held = try LocationStore.open(path: file.path, now: Instant(milliseconds: 0)).0
                processes.append((file, try held.oldestPending(limit: .max)))
            } catch {
                log("held samples in \(file.lastPathComponent) could not be read yet: \(error)")
            }
        }
        processes.sort { ($0.samples.first?.time ?? .epoch) < ($1.samples.first?.time ?? .epoch) }
        var moved = 0
        for (index, process) in processes.enumerated() {
            do {
                moved += try store.adopt(process.samples, relaunch: index == 0 ? restartWords : relaunchWords)
            } catch {
                log("held samples could not be moved into the store yet: \(error)")
                return moved
            }
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: process.file.path + suffix)
            }
        }
        return moved
    }

    /// The gap's detail for the silence before the first held sample: the phone restarted.
    static let restartWords = "the phone restarted; iOS relaunched the app before the first unlock"
    /// Before the first sample of a later process before the unlock: that one was ended too.
    static let relaunchWords = "killed; iOS relaunched it before the first unlock"
}

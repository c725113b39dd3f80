import Foundation

/// What the shell remembers across launches, beside the store: whether tracking is on, whether a
/// background activity session was held (to recreate it at a relaunch) and the dead-man notice's
/// due time. A small JSON file, written atomically.
struct ShellState: Codable, Hashable {
    var tracking = false
    var activitySession = false
    var deadManDueMilliseconds: Int64?
    /// A device id minted by releases before the token named the device; read, never used
    /// (the server refused batches naming it).
    var device: String?
    /// Whether the Always upgrade was asked for (iOS shows its prompt once per install). Optional
    /// so a state file written before it existed still decodes.
    var askedAlways: Bool?

    /// The state saved at `url`: a fresh one when there is none (the first launch), else what
    /// the file says, or a problem. A file that cannot be read (before the first unlock, if its
    /// protection is stricter than the store's) is left as it is for a later launch; one that
    /// cannot be decoded is moved aside to `shell-state.damaged.json`. Either way the tracker
    /// starts from a fresh state and says so; it never silently forgets that tracking was on.
    static func load(from url: URL) -> (state: ShellState, problem: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (ShellState(), nil) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return (
                ShellState(),
                "the tracker's state file \(url.lastPathComponent) cannot be read (\(error)); tracking restarts "
                    + "only when the user starts it, and the file is left for the next launch"
            )
        }
        do {
            return (try JSONDecoder().decode(ShellState.self, from: data), nil)
        } catch {
            let aside = url.deletingLastPathComponent().appendingPathComponent("shell-state.damaged.json")
            try? FileManager.default.removeItem(at: aside)
            let kept = (try? FileManager.default.moveItem(at: url, to: aside)) != nil
            return (
                ShellState(),
                "the tracker's state file \(url.lastPathComponent) is damaged (\(error))"
                    + (kept ? "; kept as \(aside.lastPathComponent)" : "")
                    + "; tracking is off until the user starts it again"
            )
        }
    }

    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: StoreLocation.writing)
    }

    /// What a launch before the first unlock after a reboot needs and can read: whether tracking
    /// was on, a background activity session held, and the strategy that ran. A file of no
    /// protection class (it holds no place, time or credential), beside the state file, which
    /// cannot be opened then.
    struct LaunchFlags: Codable, Hashable {
        var tracking: Bool
        var activitySession: Bool
        var strategy: String?
    }

    static func launchFlagsFile(in directory: URL) -> URL { directory.appendingPathComponent("shell-launch.json") }

    /// The launch flags saved in `directory`, if any.
    static func launchFlags(in directory: URL) -> LaunchFlags? {
        guard let data = try? Data(contentsOf: launchFlagsFile(in: directory)) else { return nil }
        return try? JSONDecoder().decode(LaunchFlags.self, from: data)
    }
}

extension ShellState.LaunchFlags {
    /// Writes the flags (best effort: without them a launch before the first unlock keeps
    /// tracking off until the user opens the app).
    func save(in directory: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: ShellState.launchFlagsFile(in: directory), options: StoreLocation.launchFlagsWriting)
    }
}

/// One upload in flight: which samples it carries and when it began. Saved beside the body so a
/// relaunch can apply the server's answer to exactly those samples.
struct UploadRecord: Codable, Hashable {
    var sent: [UUID]
    var startedMilliseconds: Int64
}

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

    static func load(from url: URL) -> ShellState {
        guard let data = try? Data(contentsOf: url), let state = try? JSONDecoder().decode(ShellState.self, from: data)
        else { return ShellState() }
        return state
    }

    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }
}

/// One upload in flight: which samples it carries and when it began. Saved beside the body so a
/// relaunch can apply the server's answer to exactly those samples.
struct UploadRecord: Codable, Hashable {
    var sent: [UUID]
    var startedMilliseconds: Int64
}

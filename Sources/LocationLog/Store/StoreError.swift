/// A store operation failed. Every case says what happened, why, and what to do about it.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file system is full: nothing was written. The shell pauses sampling.
    case diskFull(path: String)
    /// The file or its directory cannot be written (read-only mount, permissions).
    case notWritable(path: String, reason: String)
    /// The file could not be opened or used, and it was not a corruption the store can set aside.
    case cannotOpen(path: String, reason: String)
    /// The file is corrupt and could not be moved aside, so the store did not start.
    case cannotMoveAside(path: String, reason: String)
    /// Any other SQLite failure during an operation.
    case database(operation: String, reason: String)

    public var description: String {
        switch self {
        case .diskFull(let path):
            return "the disk holding \(path) is full (SQLITE_FULL); nothing was written. Sampling pauses "
                + "until space is freed: upload the backlog or delete other files."
        case .notWritable(let path, let reason):
            return "cannot write the location store \(path): \(reason). Use a path in a writable directory "
                + "(check the mount and the permissions of the directory and of any -wal/-shm files)."
        case .cannotOpen(let path, let reason):
            return "cannot open the location store \(path): \(reason). Check that the path names a file "
                + "in an existing, writable directory."
        case .cannotMoveAside(let path, let reason):
            return "the location store \(path) is unreadable and could not be moved aside: \(reason). "
                + "Move the file away by hand (keep it: it may hold unsent samples) and start again."
        case .database(let operation, let reason):
            return "location store: \(operation) failed: \(reason)"
        }
    }

    /// Whether the shell should pause sampling rather than stop.
    public var isDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }
}

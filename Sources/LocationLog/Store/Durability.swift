/// What a returned write survives: how hard a commit is pushed to disk. One vocabulary for the
/// phone's store (``LocationStore``) and the server's SQLite store (`SQLiteTrackStore`); each
/// states its own default where it opens a file (docs/glossary.md):
///
/// - the phone defaults to ``processCrash`` (no fsync per sample: sampling stays cheap on battery,
///   and a sample is deleted only after the server acknowledged it);
/// - the server defaults to ``powerLoss`` (it acknowledges a sample only after its commit
///   returned, and the phone then deletes its copy, so an acknowledged sample must survive a power
///   cut).
///
/// The raw values are SQLite's `PRAGMA synchronous` names, as `bgtrack serve --durability` takes them.
public enum Durability: String, Hashable, Sendable, CaseIterable {
    /// WAL + `synchronous = FULL`: an fsync of the WAL on every commit, so a returned commit also
    /// survives an OS crash and a power cut. Several times slower per commit (`bgtrack-bench store`).
    case powerLoss = "full"
    /// WAL + `synchronous = NORMAL`: a commit is in the WAL file (the kernel's page cache) before
    /// it returns, so it survives the process being killed (SIGKILL, jetsam, watchdog, crash); an
    /// OS crash or power loss can lose the last few commits.
    case processCrash = "normal"

    /// The `PRAGMA synchronous` value that gives this durability.
    public var synchronousPragma: String {
        switch self {
        case .powerLoss: "FULL"
        case .processCrash: "NORMAL"
        }
    }
}

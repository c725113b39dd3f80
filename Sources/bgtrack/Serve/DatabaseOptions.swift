import ArgumentParser
import Foundation
import TrackServer

/// `--db`, shared by `serve`, `device …` and `operator …`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The server's SQLite database (created if missing).")
    var path: String = "./data/tracks.sqlite"

    @Option(
        help: ArgumentHelp(
            "full: each acknowledged upload is fsynced and survives a power cut (default); normal: faster, "
                + "survives a process kill but may lose the last acknowledged uploads in an OS crash or power cut."))
    var durability: SQLiteTrackStore.Durability = .powerLoss

    /// Opens the store, creating the parent directory first.
    func openStore() throws -> SQLiteTrackStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteTrackStore(path: path, durability: durability)
    }
}

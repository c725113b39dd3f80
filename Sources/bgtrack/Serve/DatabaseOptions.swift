import ArgumentParser
import Foundation
import TrackServer

/// `--db`, shared by `serve`, `device …` and `operator …`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "The server's SQLite database (created if missing).")
    var path: String = "./data/tracks.sqlite"

    /// Opens the store, creating the parent directory first.
    func openStore() throws -> SQLiteTrackStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteTrackStore(path: path)
    }
}

import ArgumentParser
import BackgroundCore
import Foundation
import TrackServer

/// `bgtrack import --device NAME FILE…`: a device's past from GPX, KML, GeoJSON, OwnTracks `.rec`
/// or Google Takeout files, streamed (memory does not grow with the file), idempotent (a point
/// the device has is skipped) and resumable (a killed import goes on from its last batch).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a device's history: GPX, KML, GeoJSON, OwnTracks .rec, Google Takeout Records.json "
            + "or the Timeline export.",
        discussion: """
            Each file is streamed into the store in batches of --batch-size points, each batch one
            transaction with the import's checkpoint: run the same command again after a kill and it
            resumes where the last batch ended. A point the device already has (same time and
            position) is counted as a duplicate, so importing a file twice adds nothing. A bad
            record is reported on standard error with its position and the rest are imported.
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(help: "The device the points belong to (register it first with `bgtrack device add NAME`).")
    var device: String
    @Option(help: "The files' format when their first bytes do not tell: \(ImportFormat.names).")
    var format: String?
    @Option(help: "Points per transaction (1…1000000).") var batchSize = ImportPipeline.defaultBatchSize
    @Flag(help: "Read each file from its start even when an import of it stopped part-way.") var restart = false
    @Argument(help: "The files to import.") var files: [String]
    /// For the kill test: SIGKILL this process right after its Nth commit (a kill at a known point).
    @Option(help: .hidden) var killAfterBatches: Int?

    func validate() throws {
        guard !device.isEmpty, device.count <= 64 else {
            throw ValidationError("--device must name a registered device (1…64 characters)")
        }
        guard (1...1_000_000).contains(batchSize) else {
            throw ValidationError("--batch-size \(batchSize) is outside 1…1000000")
        }
        if let format, ImportFormat(name: format) == nil {
            throw ValidationError("--format '\(format.prefix(40))' is not one of: \(ImportFormat.names)")
        }
        guard !files.isEmpty else { throw ValidationError("name at least one file to import") }
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                throw ValidationError("'\(file)' does not exist; check the path")
            }
            guard !isDirectory.boolValue else {
                throw ValidationError("'\(file)' is a directory; name the files in it (e.g. Takeout/*/Records.json)")
            }
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw ValidationError("'\(file)' cannot be read; check its permissions")
            }
        }
    }

    func run() async throws {
        var failed = 0
        try await database.withStore { store in
            guard let record = try await store.device(named: device) else {
                throw ValidationError(TrackStoreError.unknownDevice(device).description)
            }
            guard record.revokedAt == nil else {
                throw ValidationError("the device \"\(device)\" is revoked; add a new device to import into")
            }
            for file in files {
                do {
                    try await ImportFile(
                        path: file, device: device, format: format.flatMap(ImportFormat.init(name:)),
                        batchSize: batchSize, restart: restart, killAfterBatches: killAfterBatches
                    ).run(store)
                } catch let error as ImportFailure {
                    failed += 1
                    FileHandle.standardError.write(Data("\(file): \(error.message)\n".utf8))
                }
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

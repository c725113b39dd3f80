import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import TrackGeometry
import TrackServer

/// `bgtrack device delete NAME --data`: erases the device and everything of it (samples, events,
/// quarantine, sessions, alerts, share links, its row) in one transaction, after a confirmation.
struct DeviceDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Erase a device and all its data in one transaction (asks first; --export FILE saves its track).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name.") var name: String
    @Flag(help: "Required: say that the device's data goes too (nothing of it remains).") var data = false
    @Flag(help: "Do not ask (for scripts); the name on the command line is the confirmation.") var yes = false
    @Option(help: "First write the device's whole track to this CSV file (refuses to overwrite one).")
    var export: String?

    func validate() throws {
        guard data else {
            throw ValidationError(
                "deleting a device erases its samples, events and links: add --data to say so "
                    + "(to stop its token but keep the data, use `bgtrack device revoke \(name)`)")
        }
        if let export, FileManager.default.fileExists(atPath: export) {
            throw ValidationError("--export \(export) exists; pick a new file name")
        }
    }

    func run() async throws {
        try await database.withStore { store in
            let counts = try await store.deviceRowCounts(device: name)
            guard !counts.isEmpty else {
                throw ValidationError("no device named \"\(name)\"; see `bgtrack device list`")
            }
            print("device \(name) holds:")
            print(Self.table(counts))
            if let export {
                let rows = try await Self.export(store, device: name, to: export)
                print("exported \(rows) samples to \(export)")
            } else {
                print("To keep a copy first, run again with --export FILE (a CSV of its whole track).")
            }
            if !yes {
                print("Type the device name to erase all of this for good: ", terminator: "")
                guard readLine(strippingNewline: true) == name else {
                    throw ValidationError("not confirmed; nothing was deleted")
                }
            }
            guard let deleted = try await store.eraseDevice(named: name) else {
                throw ValidationError("device \(name) is already gone")
            }
            print("device \(name) erased: \(deleted.values.reduce(0, +)) rows in one transaction")
        }
    }

    /// `table  rows` lines, sorted by table.
    static func table(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map {
            "  \($0.key.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.value)"
        }
        .joined(separator: "\n")
    }

    /// Writes every sample of the device as CSV, a page at a time, with local times in the zones
    /// the device was in (this host's zone where it reported none). Returns the rows written.
    static func export(_ store: any TrackStore, device: String, to path: String) async throws -> Int {
        let localTime = LocalTime(try await store.timeZones(device: device), serverDefault: .current).exportLocalTime
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ValidationError("--export: cannot create \(path); check the directory exists and is writable") }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data((TrackExport.csvHeader + "\n").utf8))
        var after: TrackPageKey?
        var rows = 0
        repeat {
            let page = try await store.trackPage(
                device: device, from: Instant(milliseconds: Int64.min / 2), to: Instant(milliseconds: Int64.max / 2),
                after: after, limit: 10_000)
            let lines = TrackExport.csv([page.points], localTime: localTime).split(
                separator: "\n", omittingEmptySubsequences: true
            )
            .dropFirst()
            if !lines.isEmpty { try handle.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8)) }
            rows += page.points.count
            after = page.next
        } while after != nil
        try handle.synchronize()
        return rows
    }
}

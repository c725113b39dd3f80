import ArgumentParser
import BackgroundCore
import TrackServer

/// `bgtrack device list`.
struct DeviceList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List registered devices.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Minutes of silence that count as offline (1…1000000).") var offlineMinutes = 10

    func validate() throws {
        guard (1...1_000_000).contains(offlineMinutes) else {
            throw ValidationError("--offline-minutes \(offlineMinutes) is outside 1…1000000.")
        }
    }

    func run() async throws {
        let now = ServerClock.system.now
        let devices = try await database.withStore { try await $0.devices() }
        guard !devices.isEmpty else {
            print("no devices; add one with `bgtrack device add NAME`")
            return
        }
        for device in devices {
            let status = device.status(at: now, offlineAfter: .seconds(offlineMinutes * 60))
            let seen = device.lastSeenAt.map { "\(Int((now - $0).seconds)) s ago" } ?? "never"
            print("\(device.name)\t\(status)\tlast seen \(seen)\t\(device.sampleCount) samples")
        }
    }
}

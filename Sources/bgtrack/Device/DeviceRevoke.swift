import ArgumentParser
import BackgroundCore
import TrackServer

/// `bgtrack device revoke NAME`: its token and every session stop working at once.
struct DeviceRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a device: its token and sessions answer 401 from now on.")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name.") var name: String

    func run() async throws {
        let now = ServerClock.system.now
        let ended = try await database.withStore { store in
            let active = try await store.shares(device: name).filter { $0.state(at: now) == .active }
            guard try await store.revokeDevice(named: name, at: now) else {
                throw ValidationError("no active device named \"\(name)\"; see `bgtrack device list`")
            }
            return active.map(\.id)
        }
        print("device \(name) revoked; its samples are kept")
        if !ended.isEmpty {
            print("its share links ended with it: \(ended.map { "#\($0)" }.joined(separator: ", "))")
        }
    }
}

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
        guard try await database.withStore({ try await $0.revokeDevice(named: name, at: ServerClock.system.now) })
        else {
            throw ValidationError("no active device named \"\(name)\"; see `bgtrack device list`")
        }
        print("device \(name) revoked; its samples are kept")
    }
}

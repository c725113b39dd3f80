import ArgumentParser
import TrackServer

/// `bgtrack device set NAME --owntracks-key …`: changes a registered device's settings.
struct DeviceSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a device's settings (its OwnTracks encryption key).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name.") var name: String
    @OptionGroup var ownTracksKey: OwnTracksKeyOption
    @Flag(help: "Forget the device's OwnTracks key (its encrypted messages are then refused and kept aside).")
    var clearOwntracksKey = false

    func validate() throws {
        guard (ownTracksKey.secret != nil) != clearOwntracksKey else {
            throw ValidationError("give either --owntracks-key SECRET (or '-' to read it) or --clear-owntracks-key")
        }
    }

    func run() async throws {
        let key = try ownTracksKey.key()
        guard try await database.withStore({ try await $0.setOwnTracksKey(device: name, key) }) else {
            throw ValidationError("no device named \"\(name)\"; see `bgtrack device list`")
        }
        print(key == nil ? "device \(name): OwnTracks key removed" : "device \(name): OwnTracks key set")
    }
}

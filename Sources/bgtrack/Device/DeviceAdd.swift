import ArgumentParser
import BackgroundCore
import TrackServer

/// `bgtrack device add NAME`: registers a device and prints its token once.
struct DeviceAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Register a device and print its token (shown only once).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name (used as OwnTracks user and OsmAnd id).") var name: String

    func validate() throws {
        guard !name.isEmpty, name.count <= 64,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw ValidationError("device names are 1…64 characters of letters, digits, '-', '_' or '.'")
        }
    }

    func run() async throws {
        let store = try database.openStore()
        let token = Tokens.mint(prefix: "bgd")
        do {
            _ = try await store.addDevice(name: name, tokenHash: Tokens.hash(token), at: ServerClock.system.now)
        } catch let error as TrackStoreError {
            throw ValidationError(error.description)
        }
        print("device \(name) added; its token (shown only this once, only its hash is stored):")
        print(token)
    }
}

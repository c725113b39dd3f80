import ArgumentParser
import BackgroundCore
import TrackServer

/// `bgtrack device add NAME`: registers a device and prints its token once.
struct DeviceAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Register a device and print its token (shown only once).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name (used as OwnTracks user and OsmAnd id).") var name: String
    @Option(
        help: "Alert when nothing was heard for this long, e.g. 35m, 2h or 90s (default: serve's --offline-minutes).")
    var silentAfter: String?
    @OptionGroup var ownTracksKey: OwnTracksKeyOption

    func validate() throws {
        guard !name.isEmpty, name.count <= 64,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw ValidationError("device names are 1…64 characters of letters, digits, '-', '_' or '.'")
        }
        // "." and ".." are path segments: /devices/.. is not this device's page.
        guard !name.allSatisfy({ $0 == "." }) else {
            throw ValidationError(
                "device name '\(name)' is only dots; its map page could not be opened, pick another name")
        }
        _ = try silentAfterDuration()
    }

    /// `--silent-after` as a duration: a whole number and s, m or h; 1 minute … 30 days.
    func silentAfterDuration() throws -> Duration? {
        guard let silentAfter else { return nil }
        guard let seconds = DurationArgument.seconds(silentAfter, in: 60...(30 * 86_400)) else {
            throw ValidationError(
                "--silent-after '\(silentAfter.prefix(40))' is not a duration of 1 minute to 30 days, e.g. 35m, 2h or 90s"
            )
        }
        return .seconds(seconds)
    }

    func run() async throws {
        let token = Tokens.mint(prefix: "bgd")
        let threshold = try silentAfterDuration()
        let key = try ownTracksKey.key()
        do {
            try await database.withStore { store in
                _ = try await store.addDevice(name: name, tokenHash: Tokens.hash(token), at: ServerClock.system.now)
                if let threshold { _ = try await store.setSilentAfter(device: name, threshold) }
                if let key { _ = try await store.setOwnTracksKey(device: name, key) }
            }
        } catch let error as TrackStoreError {
            throw ValidationError(error.description)
        }
        print("device \(name) added; its token (shown only this once, only its hash is stored):")
        print(token)
    }
}

import ArgumentParser
import Foundation
import TrackServer

/// `bgtrack device set NAME --owntracks-key …`: changes a registered device's settings.
struct DeviceSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a device's settings (its OwnTracks encryption key, its retention period, its time zone)."
    )

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The device name.") var name: String
    @OptionGroup var ownTracksKey: OwnTracksKeyOption
    @Flag(help: "Forget the device's OwnTracks key (its encrypted messages are then refused and kept aside).")
    var clearOwntracksKey = false

    @Option(help: "Keep the device's data this long (30d, 52w; at least 1d), whatever the server's --retention.")
    var retention: String?
    @Flag(help: "Use the server's --retention for this device again.") var clearRetention = false

    @Option(
        help: """
            Read all of the device's days and times in this IANA zone (e.g. Europe/Berlin), whatever \
            zone it reports; `bgtrack time-zones` lists them.
            """)
    var timeZone: String?
    @Flag(help: "Use the zones the device reports (else the server's --time-zone) again.") var clearTimeZone = false

    func validate() throws {
        let keyChange = (ownTracksKey.secret != nil) || clearOwntracksKey
        let retentionChange = retention != nil || clearRetention
        let zoneChange = timeZone != nil || clearTimeZone
        guard !(ownTracksKey.secret != nil && clearOwntracksKey), !(retention != nil && clearRetention),
            !(timeZone != nil && clearTimeZone), keyChange || retentionChange || zoneChange
        else {
            throw ValidationError(
                "give either --owntracks-key SECRET (or '-' to read it) or --clear-owntracks-key, "
                    + "and/or --retention PERIOD or --clear-retention, and/or --time-zone ZONE or --clear-time-zone")
        }
        _ = try retentionPeriod()
        if let timeZone { _ = try TimeZoneArgument.zone(timeZone) }
    }

    /// `--retention` as a duration; `nil` for none.
    func retentionPeriod() throws -> Duration? {
        guard let retention else { return nil }
        guard let seconds = LongDurationArgument.seconds(retention, in: 86_400...(100 * 366 * 86_400)) else {
            throw ValidationError("--retention '\(retention.prefix(20))' must be like 30d or 52w, from 1d to 100 years")
        }
        return .seconds(seconds)
    }

    func run() async throws {
        if timeZone != nil || clearTimeZone {
            let zone = try timeZone.map { try TimeZoneArgument.zone($0).identifier }
            guard try await database.withStore({ try await $0.setTimeZoneOverride(device: name, zone) }) else {
                throw ValidationError("no device named \"\(name)\"; see `bgtrack device list`")
            }
            print(
                "device \(name): "
                    + (zone.map { "days and times in \($0)" } ?? "days and times in the zones it reports"))
            guard retention != nil || clearRetention || ownTracksKey.secret != nil || clearOwntracksKey else { return }
        }
        if retention != nil || clearRetention {
            let period = try retentionPeriod()
            guard try await database.withStore({ try await $0.setRetention(device: name, period) }) else {
                throw ValidationError("no device named \"\(name)\"; see `bgtrack device list`")
            }
            print("device \(name): " + (retention.map { "data kept for \($0)" } ?? "the server's retention applies"))
            guard ownTracksKey.secret != nil || clearOwntracksKey else { return }
        }
        let key = try ownTracksKey.key()
        guard try await database.withStore({ try await $0.setOwnTracksKey(device: name, key) }) else {
            throw ValidationError("no device named \"\(name)\"; see `bgtrack device list`")
        }
        print(key == nil ? "device \(name): OwnTracks key removed" : "device \(name): OwnTracks key set")
    }
}

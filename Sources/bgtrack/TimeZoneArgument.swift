import ArgumentParser
import Foundation
import TrackServer

/// `--time-zone NAME`, as every command reads it: an IANA name (`Europe/Berlin`), or the host's
/// zone when not given.
enum TimeZoneArgument {
    /// The zone of `name`, or the host's (`TZ`, else `/etc/localtime`) when `nil`.
    /// - Throws: `ValidationError` naming the bad zone and how to list the valid ones.
    static func zone(_ name: String?, option: String = "--time-zone") throws -> TimeZone {
        guard let name else { return TimeZone.current }
        do {
            return try TimeZoneName.zone(name)
        } catch {
            throw ValidationError("\(option): \(error.description)")
        }
    }
}

/// `bgtrack time-zones [TEXT]`: the IANA zone names `--time-zone` accepts.
struct TimeZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time-zones", abstract: "List the IANA time zone names --time-zone accepts.")

    @Argument(help: "Show only names containing this text (any case), e.g. berlin.") var filter: String?

    func run() throws {
        let names = TimeZone.knownTimeZoneIdentifiers.filter { name in
            guard let filter else { return true }
            return name.localizedCaseInsensitiveContains(filter)
        }
        print(names.sorted().joined(separator: "\n"))
        if names.isEmpty { throw ValidationError("no time zone name contains \"\(filter ?? "")\"") }
    }
}

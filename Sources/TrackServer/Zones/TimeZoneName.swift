public import Foundation

/// IANA time zone names (`Europe/Berlin`), checked in one place: the CLI's `--time-zone`, the
/// operator's `device set --time-zone`, the `tz` of a native batch and an OwnTracks message.
public enum TimeZoneName {
    /// The zone of an IANA name, or an error that names the bad zone and says how to find a good one.
    ///
    /// Names are matched exactly, as the tz database spells them (`Europe/Berlin`, `UTC`); a name
    /// that differs only in case is refused with the right spelling suggested, so what is stored is
    /// always a name every reader knows.
    /// - Throws: ``TimeZoneNameError``.
    public static func zone(_ name: String) throws(TimeZoneNameError) -> TimeZone {
        // Foundation on Linux reads "UTC" as GMT and lists neither: the tz database's Etc/UTC.
        if name == "UTC", let utc = TimeZone(identifier: "Etc/UTC") { return utc }
        let trimmed = String(name.prefix(64))
        guard !name.isEmpty, name.utf8.count <= 64, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }),
            let zone = TimeZone(identifier: name),
            zone.identifier == name || TimeZone.knownTimeZoneIdentifiers.contains(name)
        else {
            let lowered = name.lowercased()
            let suggestion = TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowered }
            throw TimeZoneNameError(name: trimmed, suggestion: suggestion)
        }
        return zone
    }
}

/// A time zone name the tz database does not know.
public struct TimeZoneNameError: Error, CustomStringConvertible, Sendable {
    /// The name as given (at most 64 characters of it).
    public var name: String
    /// The known name that differs only in case, if any.
    public var suggestion: String?

    public var description: String {
        "time zone \"\(name)\" is not an IANA time zone name"
            + (suggestion.map { " (did you mean \($0)?)" } ?? "")
            + "; use a name such as Europe/Berlin, America/New_York or UTC (`bgtrack time-zones` lists them)"
    }
}

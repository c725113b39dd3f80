import HTTPTypes
import LocationLog

/// Version 3 of the native batch (docs/protocol.md §Zones): an optional `tz`, the IANA zone
/// the phone was in. A batch without it reads as before. A name this server's tz database does not
/// know is refused alone (the answer's `tzRejected` says why) and the samples are stored: the
/// device keeps the zone it had, so an out-of-date tz database never holds up an upload.
extension NativeBatchParser {
    static func adding(timeZone: String?, to parsed: Parsed) -> Parsed {
        guard let timeZone else { return parsed }
        var result = parsed
        do {
            _ = try TimeZoneName.zone(timeZone)
            result.timeZone = timeZone
        } catch {
            result.timeZoneRejected = "tz: \(error.description)"
        }
        return result
    }

    static func adding(timeZone body: JSONValue, to parsed: Parsed) throws(APIError) -> Parsed {
        switch body["tz"] {
        case nil, .null: return parsed
        case .string(let name): return adding(timeZone: name, to: parsed)
        case .some(let other):
            throw APIError(
                .badRequest,
                "field \"tz\" must be an IANA time zone name such as \"Europe/Berlin\", got \(other.typeName)")
        }
    }
}

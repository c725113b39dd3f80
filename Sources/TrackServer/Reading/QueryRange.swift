import BackgroundCore
import HTTPTypes

/// The `from` and `to` of a read (the track, the map, the timeline), checked: epoch milliseconds
/// or ISO-8601, `from` not after `to`; by default the 24 hours before `to`, and `to` is now.
struct QueryRange {
    var from: Instant
    var to: Instant

    init(_ parameter: (String) -> String?, now: Instant) throws(APIError) {
        func instant(_ name: String) throws(APIError) -> Instant? {
            guard let text = parameter(name), !text.isEmpty else { return nil }
            guard let value = TimestampParser.instant(from: text) else {
                throw APIError(
                    .badRequest, "\"\(name)\" must be epoch milliseconds or ISO-8601, got \"\(text.prefix(40))\"")
            }
            return value
        }
        to = try instant("to") ?? now
        from = try instant("from") ?? (to - .seconds(24 * 3600))
        guard from <= to else { throw APIError(.badRequest, "\"from\" is after \"to\"; swap them") }
    }
}

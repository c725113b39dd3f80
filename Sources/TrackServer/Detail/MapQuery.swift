import BackgroundCore
import HTTPTypes
import LocationLog
import TrackGeometry

/// The parameters of `GET /v1/devices/{id}/map`, checked: a time range, the zoom the map shows
/// and how many points it may receive at most.
struct MapQuery {
    /// Points sent by default: a whole year fits in well under a megabyte.
    static let defaultPoints = 20_000
    /// The most a client may ask for.
    static let maximumPoints = 100_000
    /// Flagged points sent as excluded markers, at most.
    static let maximumExcluded = 1_000

    var from: Instant
    var to: Instant
    /// The map's zoom (0…``DetailLevels/all``); `nil`: the finest detail the budget allows.
    var zoom: Int?
    var points: Int

    /// Defaults: the last 24 hours, the finest detail within 20,000 points.
    init(_ parameter: (String) -> String?, now: Instant) throws(APIError) {
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(APIError) -> Int? {
            guard let text = parameter(name), !text.isEmpty else { return nil }
            guard text.utf8.count <= 12, let value = Int(text), range.contains(value) else {
                throw APIError(
                    .badRequest,
                    "\"\(name)\" must be a whole number from \(range.lowerBound) to \(range.upperBound), "
                        + "got \"\(text.prefix(20))\"")
            }
            return value
        }
        let range = try QueryRange(parameter, now: now)
        (from, to) = (range.from, range.to)
        zoom = try integer("zoom", 0...DetailLevels.all)
        points = try integer("points", 1...Self.maximumPoints) ?? Self.defaultPoints
    }
}

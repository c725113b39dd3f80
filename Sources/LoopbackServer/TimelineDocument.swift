import BackgroundCore
package import Foundation
import LocationLog
package import TrackGeometry

/// `GET /v1/devices/{id}/timeline`'s answer read back into timeline entries (the fields the
/// evaluation scores; a gap's reasons are not needed for it).
package struct TimelineDocument: Decodable {
    struct Item: Decodable {
        var type: String
        var start: Int64
        var end: Int64
        var lat: Double?
        var lon: Double?
        var radius_m: Double?
        var inferred: Bool?
        var samples: Int?
        var from: [Double]?
        var to: [Double]?
        var distance_m: Double?
        var mode: String?
    }

    var entries: [Item]

    package static func entries(from data: Data) throws -> [TimelineEntry] {
        try JSONDecoder().decode(TimelineDocument.self, from: data).entries.map { try $0.entry() }
    }
}

extension TimelineDocument.Item {
    func entry() throws -> TimelineEntry {
        let start = Instant(milliseconds: start)
        let end = Instant(milliseconds: end)
        switch type {
        case "stay":
            guard let lat, let lon else { throw EvaluationError("a stay without lat/lon in the timeline") }
            return .stay(
                Stay(
                    start: start, end: end, latitude: lat, longitude: lon, radius: radius_m ?? 0,
                    sampleCount: samples ?? 0, inferred: inferred ?? false))
        case "trip":
            guard let from, let to, from.count == 2, to.count == 2, let distance_m else {
                throw EvaluationError("a trip without from/to/distance_m in the timeline")
            }
            return .trip(
                Trip(
                    start: start, end: end, distance: distance_m, sampleCount: samples ?? 0, startLatitude: from[0],
                    startLongitude: from[1], endLatitude: to[0], endLongitude: to[1],
                    mode: mode.flatMap(TravelMode.init(rawValue:))))
        case "gap":
            return .gap(TimelineGap(start: start, end: end))
        default:
            throw EvaluationError("an entry of unknown type \"\(type)\" in the timeline")
        }
    }
}

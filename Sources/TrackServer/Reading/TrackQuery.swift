import BackgroundCore
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

/// The parameters of `GET /v1/devices/{id}/track` (docs/protocol.md §Reading), checked.
struct TrackQuery {
    enum Format: String, CaseIterable {
        case geojson, gpx, csv, polyline

        var contentType: String {
            switch self {
            case .geojson: "application/geo+json"
            case .gpx: "application/gpx+xml"
            case .csv: "text/csv; charset=utf-8"
            case .polyline: "application/json; charset=utf-8"
            }
        }
    }

    var from: Instant
    var to: Instant
    var format: Format
    var simplify: Double?

    /// Defaults: the last 24 hours, GeoJSON, no simplification.
    init(_ parameter: (String) -> String?, now: Instant) throws(APIError) {
        let range = try QueryRange(parameter, now: now)
        (from, to) = (range.from, range.to)
        let formatText = parameter("format") ?? "geojson"
        guard let format = Format(rawValue: formatText) else {
            throw APIError(.badRequest, "format \"\(formatText.prefix(20))\" is not one of geojson, gpx, csv, polyline")
        }
        self.format = format
        if let text = parameter("simplify"), !text.isEmpty {
            guard let metres = Double(text), metres.isFinite, metres >= 0, metres <= 100_000 else {
                throw APIError(.badRequest, "simplify must be a tolerance in metres between 0 and 100000")
            }
            simplify = metres
        }
    }
}

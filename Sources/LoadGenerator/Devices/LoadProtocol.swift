import BackgroundCore
import Foundation
import LocationLog

/// The ingest protocol simulated devices speak (docs/protocol.md §Batches, §Overland, §OwnTracks,
/// and docs/protocol.md §OsmAnd), with how a request is encoded and how its answer acknowledges
/// samples.
package enum LoadProtocol: String, CaseIterable, Sendable {
    case native, overland, owntracks, osmand

    /// OwnTracks and OsmAnd (query form) carry one point per request.
    package var isSinglePoint: Bool { self == .owntracks || self == .osmand }

    /// Milliseconds between a device's consecutive samples: OwnTracks' `tst` is whole seconds, the
    /// others carry milliseconds. Every sample of a device has its own time, so the check can tell
    /// a duplicate (a time stored twice) from a loss (a time missing).
    package var step: Int64 { self == .owntracks ? 1000 : 1 }

    /// The request carrying `samples` of `device` (times and positions from ``LoadPlan/sample(device:index:)``).
    package func request(for device: LoadDevice, samples: Range<Int>, plan: LoadPlan, host: String) -> [UInt8] {
        let points = samples.map { plan.sample(device: device, index: $0) }
        switch self {
        case .native:
            var body = "{\"batch\":\"\(UUID().uuidString.lowercased())\",\"device\":\"\(device.name)\",\"samples\":["
            for (offset, point) in points.enumerated() {
                if offset > 0 { body += "," }
                body +=
                    "{\"id\":\"\(UUID().uuidString.lowercased())\",\"seq\":\(samples.lowerBound + offset + 1),"
                    + "\"t\":\(point.time.milliseconds),"
                    + "\"lat\":\(point.latitude),\"lon\":\(point.longitude),\"acc\":8,\"speed\":1.5,"
                    + "\"battery\":0.8,\"trigger\":\"timer\",\"state\":\"background\"}"
            }
            body += "]}"
            return Self.post("/v1/batches", host: host, auth: "Bearer \(device.token)", body: body)
        case .overland:
            var body = "{\"locations\":["
            for (offset, point) in points.enumerated() {
                if offset > 0 { body += "," }
                body +=
                    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(point.longitude),"
                    + "\(point.latitude)]},\"properties\":{\"timestamp\":\"\(point.time.iso8601)\","
                    + "\"horizontal_accuracy\":8,\"speed\":1.5,\"battery_level\":0.8,"
                    + "\"battery_state\":\"unplugged\",\"device_id\":\"\(device.name)\"}}"
            }
            body += "]}"
            return Self.post("/ingest/overland", host: host, auth: "Bearer \(device.token)", body: body)
        case .owntracks:
            let point = points.first ?? plan.sample(device: device, index: samples.lowerBound)
            return Self.ownTracksRequest(
                user: device.name, token: device.token, latitude: point.latitude, longitude: point.longitude,
                seconds: point.time.milliseconds / 1000, host: host)
        case .osmand:
            let point = points.first ?? plan.sample(device: device, index: samples.lowerBound)
            return Self.osmAndRequest(
                id: device.name, token: device.token, latitude: point.latitude, longitude: point.longitude,
                timestamp: point.time.milliseconds, host: host)
        }
    }

    /// An OwnTracks HTTP-mode `location` post of one point (`tst` in seconds), as the app sends it:
    /// Basic credentials and the `X-Limit-U`/`X-Limit-D` headers; `path` is the OwnTracks
    /// Recorder's `/pub` when it is the server measured.
    package static func ownTracksRequest(
        user: String, token: String, latitude: Double, longitude: Double, seconds: Int64, host: String,
        path: String = "/ingest/owntracks"
    ) -> [UInt8] {
        let basic = Data("\(user):\(token)".utf8).base64EncodedString()
        let body =
            "{\"_type\":\"location\",\"lat\":\(latitude),\"lon\":\(longitude),\"tst\":\(seconds),\"acc\":8,"
            + "\"alt\":30,\"vel\":5,\"batt\":80,\"bs\":1,\"tid\":\"ld\",\"t\":\"p\",\"conn\":\"w\"}"
        return post(
            path, host: host, auth: "Basic \(basic)", body: body,
            extra: "X-Limit-U: \(user)\r\nX-Limit-D: load\r\n")
    }

    /// An OsmAnd / Traccar client's `GET` of one point, our token in the query.
    package static func osmAndRequest(
        id: String, token: String, latitude: Double, longitude: Double, timestamp: Int64, host: String
    ) -> [UInt8] {
        Array(
            ("GET /ingest/osmand?id=\(id)&token=\(token)&timestamp=\(timestamp)&lat=\(latitude)&lon=\(longitude)"
                + "&speed=2&bearing=90&altitude=30&accuracy=8&batt=80 HTTP/1.1\r\nHost: \(host)\r\n\r\n").utf8)
    }

    private static func post(_ path: String, host: String, auth: String, body: String, extra: String = "") -> [UInt8] {
        Array(
            ("POST \(path) HTTP/1.1\r\nHost: \(host)\r\nAuthorization: \(auth)\r\n\(extra)"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
    }
}

package import BackgroundCore
package import Foundation
import LocationLog
package import TrackGeometry
import TrackServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ways points reach the server, each as its client sends them (docs/protocol.md): the real
/// trace evaluation feeds the same points through every one and compares the timelines.
package enum IngestPath: String, CaseIterable, Sendable {
    /// `POST /v1/batches`, batches of ``RealTraceFeed/batchSize`` through the phone's transport.
    case native
    /// `POST /ingest/owntracks`, one `location` a request, `tst` in whole seconds.
    case owntracks
    /// `POST /ingest/overland`, batches of GeoJSON features.
    case overland
    /// `GET /ingest/osmand`, one point a request.
    case osmand
    /// `POST /v1/devices/{id}/imports`, one GPX file.
    case gpx
    /// `bgtrack import` of the same GPX file into the server's database, from another process.
    case cliImport = "import"
}

/// Feeds one person's points through one ``IngestPath`` into an ``EvaluationServer`` and reads
/// the device's timeline back. Blocking: call it from a thread of its own (``onOwnThread(_:)``).
/// Points carry no accuracy or speed unless the trace had them; every path sends what it can.
package struct RealTraceFeed: Sendable {
    package let server: EvaluationServer
    /// `bgtrack` (for ``IngestPath/cliImport``): it writes into the server's database file.
    package let bgtrack: URL?
    private let client: SessionClient
    /// Points per native or Overland request: a phone uploading every 15-20 minutes at 2-minute sampling.
    static let batchSize = 10

    package init(server: EvaluationServer, bgtrack: URL?) {
        self.server = server
        self.bgtrack = bgtrack
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.httpMaximumConnectionsPerHost = 1
        client = SessionClient(base: server.base, session: URLSession(configuration: configuration))
    }

    /// Registers `device`, sends `points` (time-ordered) through `path`, and returns the device's
    /// whole timeline as `GET /v1/devices/{id}/timeline` answers it.
    package func run(_ points: [SampleValues], path: IngestPath, device: String) throws -> [TimelineEntry] {
        guard let first = points.first, let last = points.last else { return [] }
        let token = Tokens.mint(prefix: "bgd")
        let store = server.store
        server.clock.set(first.time)
        try blockingThrows {
            _ = try await store.addDevice(name: device, tokenHash: Tokens.hash(token), at: first.time)
        }
        switch path {
        case .native:
            for (number, chunk) in points.chunked(Self.batchSize).enumerated() {
                server.clock.set((chunk.last?.time ?? last.time) + .seconds(1))
                let samples = chunk.enumerated().map { offset, point in
                    WireSample(
                        id: UUID().wireString, seq: Int64(number * Self.batchSize + offset + 1), values: point,
                        trigger: "timer", state: "background")
                }
                let body = try JSONEncoder().encode(
                    BatchRequest(batch: UUID().wireString, device: device, samples: samples))
                try post("v1/batches", body: body, auth: "Bearer \(token)")
            }
        case .overland:
            for chunk in points.chunked(Self.batchSize) {
                server.clock.set((chunk.last?.time ?? last.time) + .seconds(1))
                let features = chunk.map { point -> [String: Any] in
                    var properties: [String: Any] = ["timestamp": point.time.iso8601, "device_id": device]
                    if let accuracy = point.accuracy { properties["horizontal_accuracy"] = accuracy }
                    if let speed = point.speed { properties["speed"] = speed }
                    return [
                        "type": "Feature",
                        "geometry": ["type": "Point", "coordinates": [point.longitude, point.latitude]],
                        "properties": properties,
                    ]
                }
                let body = try JSONSerialization.data(withJSONObject: ["locations": features])
                try post("ingest/overland", body: body, auth: "Bearer \(token)")
            }
        case .owntracks:
            let basic = Data("\(device):\(token)".utf8).base64EncodedString()
            for point in points {
                server.clock.set(point.time + .seconds(1))
                var location: [String: Any] = [
                    "_type": "location", "lat": point.latitude, "lon": point.longitude,
                    "tst": point.time.milliseconds / 1000, "tid": "rt",
                ]
                if let accuracy = point.accuracy { location["acc"] = Int(accuracy.rounded()) }
                // OwnTracks sends km/h.
                if let speed = point.speed { location["vel"] = Int((speed * 3.6).rounded()) }
                let body = try JSONSerialization.data(withJSONObject: location)
                try post(
                    "ingest/owntracks", body: body, auth: "Basic \(basic)",
                    extra: ["X-Limit-U": device, "X-Limit-D": "real"])
            }
        case .osmand:
            for point in points {
                server.clock.set(point.time + .seconds(1))
                var query =
                    "id=\(device)&token=\(token)&timestamp=\(point.time.milliseconds / 1000)&lat=\(point.latitude)&lon=\(point.longitude)"
                if let accuracy = point.accuracy { query += "&accuracy=\(accuracy)" }
                // OsmAnd sends m/s (Traccar's client knots: docs/protocol.md §OsmAnd).
                if let speed = point.speed { query += "&speed=\(speed)" }
                try get("ingest/osmand?\(query)")
            }
        case .gpx:
            server.clock.set(last.time + .seconds(3600))
            try post("v1/devices/\(device)/imports", body: Data(Self.gpx(points).utf8), auth: "Bearer \(token)")
        case .cliImport:
            server.clock.set(last.time + .seconds(3600))
            try importWithBgtrack(points, device: device)
        }
        // The route answers at most 31 days a request: read the span a month at a time, each entry
        // once (one that spans two months is in both answers).
        var entries: [TimelineEntry] = []
        var from = first.time
        while from <= last.time {
            let to = min(from + .seconds(30 * 86_400), last.time + .seconds(1))
            for entry in try client.timeline(device: device, token: token, from: from, to: to)
            where entries.last.map({ entry.start > $0.start }) ?? true {
                entries.append(entry)
            }
            from = to
        }
        return entries
    }

    /// A GPX 1.1 track of `points`, as a logger app exports it.
    static func gpx(_ points: [SampleValues]) -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"bgtrack-bench\" "
            + "xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for point in points {
            text +=
                "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>\(point.time.iso8601)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    private func importWithBgtrack(_ points: [SampleValues], device: String) throws {
        guard let bgtrack else { throw EvaluationError("the import path needs bgtrack beside bgtrack-bench") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bgtrack-real-\(UUID().uuidString).gpx")
        try Data(Self.gpx(points).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = bgtrack
        process.arguments = ["import", "--device", device, "--db", server.databasePath, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EvaluationError("bgtrack import failed (\(process.terminationStatus)): \(text.suffix(400))")
        }
    }

    private func post(_ path: String, body: Data, auth: String, extra: [String: String] = [:]) throws {
        guard let url = URL(string: path, relativeTo: server.base) else { throw EvaluationError("no URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(
            path.hasSuffix("imports") ? "application/gpx+xml" : "application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(auth, forHTTPHeaderField: "Authorization")
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        try check(request, path: path)
    }

    private func get(_ path: String) throws {
        guard let url = URL(string: path, relativeTo: server.base) else { throw EvaluationError("no URL for \(path)") }
        try check(URLRequest(url: url), path: path)
    }

    private func check(_ request: URLRequest, path: String) throws {
        let (status, data) = client.send(request)
        guard let status, (200..<300).contains(status) else {
            throw EvaluationError(
                "\(request.httpMethod ?? "GET") /\(path.prefix(60)) answered \(status.map(String.init) ?? "nothing"): "
                    + String(decoding: (data ?? Data()).prefix(400), as: UTF8.self))
        }
    }

}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

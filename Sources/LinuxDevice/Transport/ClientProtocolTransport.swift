import BackgroundCore
package import Foundation
package import LocationLog

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// Uploads with the Overland, OwnTracks or OsmAnd / Traccar protocol, so an app using this library
/// can upload to the servers its users already run (docs/protocol.md §Overland, §OwnTracks, §OsmAnd).
///
/// Each protocol's acknowledgement maps onto the sync machine's per-sample one, so the rule
/// "a sample leaves the phone only when the server acknowledged exactly that sample" holds:
/// - Overland acknowledges the whole batch with `{"result":"ok"}`: every sample sent is stored.
/// - OwnTracks and OsmAnd acknowledge one point per request. Points go one at a time, oldest first;
///   the first failure stops the batch. Points answered before it count as stored (a partial
///   acknowledgement), the rest stay pending. Any 4xx, 400 included, is a failure of the request,
///   not a verdict on the point: OsmAnd servers answer 400 for an unknown device id, which would
///   otherwise move every point aside; the point stays pending and the sync machine backs off.
/// A resent point is harmless on our server: samples without an id are keyed by device, time and
/// position (`TrackSample.positionKey`).
///
/// Units are converted to each protocol's: OwnTracks `vel` km/h and `tst` epoch seconds, OsmAnd
/// `speed` knots and `timestamp` epoch seconds, battery in per cent for both.
package struct ClientProtocolTransport: BatchTransport {
    package let uploadProtocol: UploadProtocol
    package let endpoint: URL
    private let device: String
    private let token: String
    private let timeout: Duration
    private let session: URLSession

    /// - Parameters:
    ///   - uploadProtocol: `.overland`, `.owntracks` or `.traccar` (`.native` is ``URLSessionBatchTransport``).
    ///   - server: our server's base URL, or another server's full endpoint (see ``UploadProtocol/endpoint(for:)``).
    ///   - device: the device name (OwnTracks user and device, OsmAnd `id`, Overland `device_id`).
    ///   - token: the device token (Overland Bearer, OwnTracks Basic password, OsmAnd `token`).
    package init(
        protocol uploadProtocol: UploadProtocol, server: URL, device: String, token: String,
        timeout: Duration = .seconds(30), session: URLSession = .shared
    ) {
        self.uploadProtocol = uploadProtocol
        self.endpoint = uploadProtocol.endpoint(for: server)
        self.device = device
        self.token = token
        self.timeout = timeout
        self.session = session
    }

    package func send(_ request: BatchRequest) async -> UploadOutcome {
        // The phone's own samples always convert; one that does not is set aside, not dropped.
        var samples: [Sample] = []
        var unreadable: [UUID: String] = [:]
        for wire in request.samples {
            do {
                samples.append(try wire.sample())
            } catch {
                if let id = UUID(uuidString: wire.id) { unreadable[id] = error.description }
            }
        }
        let outcome: UploadOutcome
        switch uploadProtocol {
        case .native:
            return await URLSessionBatchTransport(server: endpoint, token: token, timeout: timeout, session: session)
                .send(request)
        case .overland:
            outcome = samples.isEmpty ? .acknowledged(BatchAcknowledgement()) : await sendOverland(samples)
        case .owntracks, .traccar:
            outcome = await sendPointByPoint(samples)
        }
        guard !unreadable.isEmpty else { return outcome }
        guard case .acknowledged(var acknowledgement) = outcome else { return outcome }
        acknowledgement.rejected.merge(unreadable) { first, _ in first }
        return .acknowledged(acknowledgement)
    }

    // MARK: Overland

    private func sendOverland(_ samples: [Sample]) async -> UploadOutcome {
        var request = urlRequest(endpoint)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Self.overlandBody(samples, device: device)
        let (status, body, retryAfter) = await exchange(request)
        guard let status else { return .networkError(message: "\(endpoint.absoluteString): \(body.text)") }
        if status == 200 {
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            guard object?["result"] as? String == "ok" else {
                return .unexpectedResponse(message: "HTTP 200 without {\"result\":\"ok\"}: \(body.text)")
            }
            return .acknowledged(BatchAcknowledgement(stored: Set(samples.map(\.id))))
        }
        return URLSessionBatchTransport.outcome(status: status, body: body, retryAfter: retryAfter)
    }

    /// `{"locations": [Feature…]}` with Overland's property names (docs/protocol.md §Overland).
    package static func overlandBody(_ samples: [Sample], device: String) -> Data {
        let features: [[String: Any]] = samples.map { sample in
            var properties: [String: Any] = [
                "timestamp": sample.time.iso8601, "device_id": device, "unique_id": sample.id.uuidString,
            ]
            properties["horizontal_accuracy"] = sample.accuracy
            properties["altitude"] = sample.altitude
            properties["speed"] = sample.speed
            properties["course"] = sample.course
            properties["battery_level"] = sample.battery
            if let charging = sample.charging { properties["battery_state"] = charging ? "charging" : "unplugged" }
            return [
                "type": "Feature",
                "geometry": ["type": "Point", "coordinates": [sample.longitude, sample.latitude]],
                "properties": properties,
            ]
        }
        return (try? JSONSerialization.data(withJSONObject: ["locations": features], options: [.sortedKeys]))
            ?? Data("{\"locations\":[]}".utf8)
    }

    // MARK: One point per request

    private func sendPointByPoint(_ samples: [Sample]) async -> UploadOutcome {
        var acknowledgement = BatchAcknowledgement()
        for sample in samples {
            let (status, body, retryAfter) = await exchange(pointRequest(sample))
            let outcome: UploadOutcome
            switch status {
            case .some(200...299):
                acknowledgement.stored.insert(sample.id)
                continue
            case .some(let status):
                outcome = URLSessionBatchTransport.outcome(status: status, body: body, retryAfter: retryAfter)
            case .none:
                outcome = .networkError(message: "\(endpoint.absoluteString): \(body.text)")
            }
            // Stop at the first failure: what was answered so far is acknowledged, the rest waits.
            return acknowledgement.stored.isEmpty && acknowledgement.rejected.isEmpty
                ? outcome : .acknowledged(acknowledgement)
        }
        return .acknowledged(acknowledgement)
    }

    private func pointRequest(_ sample: Sample) -> URLRequest {
        if uploadProtocol == .traccar {
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
            let existing = components?.queryItems ?? []
            components?.queryItems = existing + Self.traccarQuery(sample, device: device, token: token)
            var request = urlRequest(components?.url ?? endpoint)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            return request
        }
        var request = urlRequest(endpoint)
        let credentials = Data("\(device):\(token)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        request.setValue(device, forHTTPHeaderField: "X-Limit-U")
        request.setValue(device, forHTTPHeaderField: "X-Limit-D")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Self.ownTracksBody(sample)
        return request
    }

    /// An OwnTracks `_type: location` message (docs/protocol.md §OwnTracks): `tst` in seconds, `vel` in km/h,
    /// `batt` in per cent, `bs` 1 unplugged / 2 charging.
    package static func ownTracksBody(_ sample: Sample) -> Data {
        var message: [String: Any] = [
            "_type": "location", "lat": sample.latitude, "lon": sample.longitude,
            "tst": sample.time.milliseconds / 1000, "t": ownTracksTrigger(sample.trigger),
        ]
        message["acc"] = sample.accuracy.map { Int($0.rounded()) }
        message["alt"] = sample.altitude.map { Int($0.rounded()) }
        message["vel"] = sample.speed.map { Int(($0 * 3.6).rounded()) }
        message["cog"] = sample.course.map { Int($0.rounded()) }
        message["batt"] = sample.battery.map { Int(($0 * 100).rounded()) }
        if let charging = sample.charging { message["bs"] = charging ? 2 : 1 }
        return (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])) ?? Data()
    }

    static func ownTracksTrigger(_ trigger: SampleTrigger) -> String {
        switch trigger {
        case .timer, .refresh, .push, .motion: "t"
        case .significant: "p"
        case .visit: "v"
        case .region: "c"
        case .foreground, .manual: "u"
        }
    }

    /// The OsmAnd / Traccar query (docs/protocol.md §OsmAnd): `timestamp` epoch seconds, `speed` knots,
    /// `batt` per cent; `token` is our server's addition (Traccar ignores unknown parameters).
    package static func traccarQuery(_ sample: Sample, device: String, token: String) -> [URLQueryItem] {
        var items = [
            URLQueryItem(name: "id", value: device), URLQueryItem(name: "token", value: token),
            URLQueryItem(name: "timestamp", value: String(sample.time.milliseconds / 1000)),
            URLQueryItem(name: "lat", value: String(sample.latitude)),
            URLQueryItem(name: "lon", value: String(sample.longitude)),
        ]
        func add(_ name: String, _ value: Double?) {
            if let value { items.append(URLQueryItem(name: name, value: String(value))) }
        }
        add("speed", sample.speed.map { $0 / 0.514_444 })
        add("bearing", sample.course)
        add("altitude", sample.altitude)
        add("accuracy", sample.accuracy)
        add("batt", sample.battery.map { ($0 * 100).rounded() })
        if let charging = sample.charging { items.append(URLQueryItem(name: "charge", value: String(charging))) }
        return items
    }

    // MARK: HTTP

    private func urlRequest(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = Double(timeout.components.seconds)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// The status (`nil` with no HTTP answer, the error text then in the body), body and `Retry-After`.
    private func exchange(_ request: URLRequest) async -> (Int?, Data, String?) {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return (nil, Data("not an HTTP response".utf8), nil) }
            return (http.statusCode, data, http.value(forHTTPHeaderField: "Retry-After"))
        } catch {
            return (nil, Data(error.localizedDescription.utf8), nil)
        }
    }
}

extension Data {
    /// The start of a body as text, for messages.
    fileprivate var text: String {
        let text = String(decoding: prefix(200), as: UTF8.self)
        return text.isEmpty ? "(empty body)" : text
    }
}

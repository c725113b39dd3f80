import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The Overland success body: the app deletes its queue only on `"result":"ok"`.
struct OverlandResponse: Encodable {
    struct Skip: Encodable {
        var index: Int
        var reason: String
    }
    var result = "ok"
    var saved: Int
    var skipped: [Skip]
}

extension IngestController {
    /// `POST /ingest/overland`.
    func ingestOverland(_ request: Request, context: some RequestContext) async throws -> Response {
        try await countingRefusals(.overland) {
            let device = try await auth.writer(token: Authenticator.bearer(request, allowQuery: true))
            let bytes = try await bodyReader.read(request)
            let json = try JSONBody.parse(bytes)
            let parser = OverlandParser(rules: rules, maxSamples: maxSamplesPerBatch)
            let parsed = try parser.parse(json, now: clock.now)
            let outcome = try await committer.insert(parsed.samples, device: device, at: clock.now, bytes: bytes.count)
            updateTimeline(parsed.samples, outcome: outcome, device: device)
            await waitForTimeline()
            // Overland resends a batch it did not see answered "ok" as it is, with the trip of the
            // moment: a batch whose every location is already stored is a resend, and its trip is
            // not stored again (issue 23). A batch with nothing but a trip stores it.
            if let trip = parsed.trip, !outcome.accepted.isEmpty || parsed.samples.isEmpty {
                let text = String(decoding: try JSONEncoder().encode(trip), as: UTF8.self)
                try await ingestLog.recordEvent(device: device, type: "overland.trip", json: text, at: clock.now)
            }
            // Overland deletes the whole batch on "ok": a skipped location must not vanish.
            let features: [JSONValue] = {
                guard case .array(let locations) = json["locations"] else { return [] }
                return locations + [json["current"]].compactMap { $0 }
            }()
            for skip in parsed.skipped {
                let raw = features.indices.contains(skip.index) ? features[skip.index] : JSONValue.null
                try await quarantine(
                    device: device, source: .overland, reason: skip.reason,
                    raw: String(decoding: try JSONEncoder().encode(raw), as: UTF8.self), logger: context.logger)
            }
            record(.overland, outcome: outcome, rejected: parsed.skipped.count)
            context.logger.info(
                "overland batch stored",
                metadata: [
                    "device": "\(device)", "accepted": "\(outcome.accepted.count)",
                    "duplicates": "\(outcome.duplicates.count)", "skipped": "\(parsed.skipped.count)",
                ])
            return try Response.json(
                OverlandResponse(
                    saved: outcome.accepted.count + outcome.duplicates.count,
                    skipped: parsed.skipped.map { .init(index: $0.index, reason: $0.reason) }))
        }
    }
}

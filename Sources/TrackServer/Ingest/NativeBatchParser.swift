import BackgroundCore
import Foundation
import HTTPTypes
import LocationLog
import Logging

/// Parses `POST /v1/batches` (protocols.md §1) into valid samples and per-sample rejections.
///
/// Whole-batch problems (not JSON, no `samples` array, a sample without an id, the same id twice,
/// too many samples, another device's name) throw an ``APIError`` and nothing is written.
/// Problems with one sample's values reject only that sample, by id, with a reason.
struct NativeBatchParser: Sendable {
    var rules: SampleRules
    var maxSamples: Int

    struct Parsed {
        var batch: String?
        var samples: [IngestSample]
        var rejected: [(id: String, reason: String)]
    }

    func parse(_ body: JSONValue, device: String, now: Instant) throws(APIError) -> Parsed {
        guard case .object = body else {
            throw APIError(.badRequest, "the body must be a JSON object {\"batch\", \"device\", \"samples\": […]}")
        }
        let batch: String?
        switch body["batch"] {
        case nil, .null: batch = nil
        case .string(let value): batch = value
        case .some(let other): throw APIError(.badRequest, "field \"batch\" must be a string, got \(other.typeName)")
        }
        switch body["device"] {
        case nil, .null: break
        case .string(let name) where name == device: break
        case .string(let name):
            throw APIError(
                .forbidden,
                "the batch names device \"\(name)\" but the token belongs to another device; "
                    + "upload each device's samples with its own token")
        case .some(let other): throw APIError(.badRequest, "field \"device\" must be a string, got \(other.typeName)")
        }
        guard case .array(let items) = body["samples"] else {
            throw APIError(.badRequest, "field \"samples\" must be an array of samples")
        }
        guard items.count <= maxSamples else {
            throw APIError(
                .contentTooLarge,
                "the batch has \(items.count) samples, more than the limit of \(maxSamples); split it")
        }
        var parsed = Parsed(batch: batch, samples: [], rejected: [])
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let label = "sample \(index)"
            guard case .string(let id) = item["id"], !id.isEmpty, id.utf8.count <= 64 else {
                throw APIError(
                    .badRequest,
                    "\(label) has no usable \"id\" (a string of 1…64 characters, the UUID minted on the phone); "
                        + "the whole batch was refused so nothing is lost")
            }
            if let first = seen[id] {
                throw APIError(
                    .badRequest, "\(label) repeats id \"\(id)\" of sample \(first); ids must be unique in a batch")
            }
            seen[id] = index
            do {
                parsed.samples.append(try sample(item, id: id, label: label, now: now))
            } catch {
                parsed.rejected.append((id: id, reason: error.message))
            }
        }
        return parsed
    }

    private func sample(_ item: JSONValue, id: String, label: String, now: Instant) throws(SampleProblem)
        -> IngestSample
    {
        let fields = try FieldReader(item, label: label)
        let time = try fields.requiredNumber("t")
        guard time == time.rounded(), abs(time) < 1e15 else {
            throw fields.problem("t", "must be whole epoch milliseconds, got \(time)")
        }
        let seq = try fields.requiredNumber("seq")
        guard seq == seq.rounded(), abs(seq) < 9e15 else {
            throw fields.problem("seq", "must be a whole number, got \(seq)")
        }
        let wire = WireSample(
            id: id, seq: Int64(seq), t: Int64(time), lat: try fields.requiredNumber("lat"),
            lon: try fields.requiredNumber("lon"), acc: try fields.number("acc"), alt: try fields.number("alt"),
            speed: try fields.number("speed"), course: try fields.number("course"),
            battery: try fields.number("battery"), charging: try fields.bool("charging"),
            trigger: try fields.string("trigger"), state: try fields.string("state"))
        do {
            // The phone's own validation (LocationLog), so both ends judge a sample alike.
            _ = try wire.sample()
        } catch {
            throw SampleProblem(message: "\(label): \(error.description)")
        }
        let sample = IngestSample(
            key: id, id: id, seq: wire.seq, time: Instant(milliseconds: wire.t), latitude: wire.lat,
            longitude: wire.lon, accuracy: wire.acc, altitude: wire.alt, speed: wire.speed, course: wire.course,
            battery: wire.battery, charging: wire.charging, trigger: wire.trigger, state: wire.state, source: .native
        )
        try rules.check(sample, label: label, now: now)
        return sample
    }
}

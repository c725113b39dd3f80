package import BackgroundCore
import Foundation
import HTTPTypes
import LocationLog
import Logging

/// Parses `POST /v1/batches` (docs/protocol.md §Batches) into valid samples and per-sample rejections.
///
/// Whole-batch problems (not JSON, no `samples` array, a sample without an id, the same id twice,
/// too many samples, another device's name) throw an ``APIError`` and nothing is written.
/// Problems with one sample's values reject only that sample, by id, with a reason.
package struct NativeBatchParser: Sendable {
    var rules: SampleRules
    var maxSamples: Int

    package struct Parsed {
        package var batch: String?
        package var samples: [TrackSample]
        package var rejected: [(id: String, reason: String)]
        /// Gap intervals (batch version 2): valid ones to store, refused ones with the reason.
        package var gaps: [IngestGap] = []
        package var gapsRejected: [(id: String, reason: String)] = []
        /// The batch had a `gaps` array (the answer then says what became of each).
        package var hasGaps = false
        /// The IANA zone the phone was in (`tz`, version 3), checked; `nil` when absent or refused.
        package var timeZone: String?
        /// Why the batch's `tz` was refused (the samples are stored all the same).
        package var timeZoneRejected: String?
    }

    init(rules: SampleRules, maxSamples: Int) {
        self.rules = rules
        self.maxSamples = maxSamples
    }

    /// The route's parser with the default sample rules (`bgtrack-bench server`'s "parse and
    /// insert, no HTTP" step).
    package init(maxSamples: Int) {
        self.init(rules: SampleRules(), maxSamples: maxSamples)
    }

    /// `parse(bytes:device:now:)` for callers outside the module (the benchmark).
    package func parseBody(_ bytes: [UInt8], device: String, now: Instant) throws -> Parsed {
        try parse(bytes: bytes, device: device, now: now)
    }

    /// The shape of a well-typed batch: decoding straight into it is several times cheaper than a
    /// generic JSON tree, and any type mismatch falls back to the field-by-field path.
    private struct TypedBatch: Decodable {
        var batch: String?
        var device: String?
        var samples: [WireSample]
        var v: Int?
        var gaps: [WireGap]?
        var tz: String?
    }

    /// Three readers, cheapest first, each taking only what the next would read the same way: the
    /// plain batch a phone sends (``NativeBatchScanner``), any well-typed batch (`JSONDecoder`),
    /// and field by field for the messages that name a sample and a field.
    /// - Parameters:
    ///   - scanning: `false` skips the scanner, for tests that compare the paths.
    func parse(bytes: [UInt8], device: String, now: Instant, scanning: Bool = true) throws(APIError) -> Parsed {
        // The scanner reads a fixed shape three levels deep, so it needs no depth check first.
        if scanning, let plain = NativeBatchScanner.scan(bytes) {
            let parsed = try parse(
                batch: plain.batch, deviceField: plain.device, samples: plain.samples, device: device, now: now)
            guard plain.version != nil || plain.timeZone != nil else { return parsed }
            return Self.adding(
                timeZone: plain.timeZone,
                to: try adding(gaps: nil, version: plain.version.map(Double.init), to: parsed, now: now))
        }
        try JSONBody.checkDepth(bytes)
        if let typed = try? JSONDecoder().decode(TypedBatch.self, from: Data(bytes)) {
            let parsed = try parse(
                batch: typed.batch, deviceField: typed.device, samples: typed.samples, device: device, now: now)
            return Self.adding(
                timeZone: typed.tz,
                to: try adding(gaps: typed.gaps, version: typed.v.map(Double.init), to: parsed, now: now))
        }
        let body = try JSONBody.parse(bytes)
        return try Self.adding(
            timeZone: body, to: adding(gaps: body, to: parse(body, device: device, now: now), now: now))
    }

    private func parse(
        batch: String?, deviceField: String?, samples: [WireSample], device: String, now: Instant
    ) throws(APIError) -> Parsed {
        try checkHeader(deviceField: deviceField, device: device, count: samples.count)
        var parsed = Parsed(batch: batch, samples: [], rejected: [])
        parsed.samples.reserveCapacity(samples.count)
        var seen: [String: Int] = [:]
        seen.reserveCapacity(samples.count)
        for (index, wire) in samples.enumerated() {
            try checkID(wire.id, index: index, seen: &seen)
            do {
                parsed.samples.append(try validate(wire, index: index, now: now))
            } catch {
                parsed.rejected.append((id: wire.id, reason: error.message))
            }
        }
        return parsed
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
        let deviceField: String?
        switch body["device"] {
        case nil, .null: deviceField = nil
        case .string(let name): deviceField = name
        case .some(let other): throw APIError(.badRequest, "field \"device\" must be a string, got \(other.typeName)")
        }
        guard case .array(let items) = body["samples"] else {
            throw APIError(.badRequest, "field \"samples\" must be an array of samples")
        }
        try checkHeader(deviceField: deviceField, device: device, count: items.count)
        var parsed = Parsed(batch: batch, samples: [], rejected: [])
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item["id"] else {
                throw APIError(.badRequest, "sample \(index) has no string \"id\"; " + Self.idAdvice)
            }
            try checkID(id, index: index, seen: &seen)
            do {
                parsed.samples.append(try sample(item, id: id, index: index, now: now))
            } catch {
                parsed.rejected.append((id: id, reason: error.message))
            }
        }
        return parsed
    }

    private static let idAdvice =
        "every sample needs the UUID minted on the phone (1…64 characters); the whole batch was refused so nothing is lost"

    private func checkHeader(deviceField: String?, device: String, count: Int) throws(APIError) {
        if let deviceField, deviceField != device {
            throw APIError(
                .forbidden,
                "the batch names device \"\(deviceField.prefix(64))\" but the token belongs to another device; "
                    + "upload each device's samples with its own token")
        }
        guard count <= maxSamples else {
            throw APIError(
                .contentTooLarge, "the batch has \(count) samples, more than the limit of \(maxSamples); split it")
        }
    }

    /// The sample's label ("sample 3") is built only for a message: most batches need none.
    private func checkID(_ id: String, index: Int, seen: inout [String: Int]) throws(APIError) {
        guard !id.isEmpty, id.utf8.count <= 64 else {
            throw APIError(.badRequest, "sample \(index) has an unusable \"id\"; " + Self.idAdvice)
        }
        if let first = seen.updateValue(index, forKey: id) {
            throw APIError(
                .badRequest, "sample \(index) repeats id \"\(id)\" of sample \(first); ids must be unique in a batch")
        }
    }

    private func sample(_ item: JSONValue, id: String, index: Int, now: Instant) throws(SampleProblem)
        -> TrackSample
    {
        let fields = try FieldReader(item, label: "sample \(index)")
        let time = try fields.requiredNumber("t")
        guard time == time.rounded(), abs(time) < 1e15 else {
            throw fields.problem("t", "must be whole epoch milliseconds, got \(time)")
        }
        let seq = try fields.requiredNumber("seq")
        guard seq == seq.rounded(), abs(seq) < 9e15 else {
            throw fields.problem("seq", "must be a whole number, got \(seq)")
        }
        let values = try SampleValues(
            time: { () throws(SampleProblem) -> Int64 in Int64(time) },
            position: { field throws(SampleProblem) in try fields.requiredNumber(field.wireKey) },
            measurement: { field throws(SampleProblem) in try fields.number(field.wireKey) },
            flag: { field throws(SampleProblem) in try fields.bool(field.wireKey) })
        let wire = WireSample(
            id: id, seq: Int64(seq), values: values, trigger: try fields.string("trigger"),
            state: try fields.string("state"))
        return try validate(wire, index: index, now: now)
    }

    /// The sample rules once (``SampleRules``, the phone's ``SampleRuleSet``), after the wire
    /// names (a UUID id, a known trigger and state) that only the native protocol has.
    private func validate(_ wire: WireSample, index: Int, now: Instant) throws(SampleProblem) -> TrackSample {
        do {
            try wire.checkNames()
        } catch {
            throw SampleProblem(label: "sample \(index)", error)
        }
        var sample = TrackSample(
            key: wire.id, id: wire.id, seq: wire.seq, values: wire.values, trigger: wire.trigger, state: wire.state,
            source: .native)
        sample.values = sample.values.withZeroAccuraciesAsUnknown
        try rules.check(sample, label: "sample \(index)", now: now)
        return sample
    }
}

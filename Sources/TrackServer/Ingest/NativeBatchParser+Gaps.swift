import BackgroundCore
import HTTPTypes
import LocationLog

/// Version 2 of the native batch (docs/protocol.md §Gaps): an optional `gaps` array of
/// `{"id", "start", "end", "reason", "detail"}`, the phone's reasons for not sampling.
///
/// A batch without `gaps` reads exactly as version 1. Whole-batch problems (too many gaps, a gap
/// without a usable id, the same id twice, `v` not a whole number from 1) refuse the batch; a gap
/// with bad values (end before start, a time outside 2000…now + 1 day, a reason this server does
/// not know) is refused alone, by id, in `gapsRejected`, and the samples are stored.
extension NativeBatchParser {
    /// More gaps than this in one batch refuse it (the phone sends at most 100).
    static let maximumGaps = 1000

    func adding(gaps: [WireGap]?, version: Double?, to parsed: Parsed, now: Instant) throws(APIError) -> Parsed {
        try checkVersion(version)
        guard let gaps else { return parsed }
        try checkGapCount(gaps.count)
        var result = parsed
        result.hasGaps = true
        var seen: Set<String> = []
        for (index, gap) in gaps.enumerated() {
            try checkGapID(gap.id, index: index, seen: &seen)
            validate(gap, now: now, into: &result)
        }
        return result
    }

    /// The field-by-field path: the same rules, with messages that name the gap and the field.
    func adding(gaps body: JSONValue, to parsed: Parsed, now: Instant) throws(APIError) -> Parsed {
        let version: Double?
        switch body["v"] {
        case nil, .null: version = nil
        case .number(let value): version = value
        case .some(let other): throw APIError(.badRequest, "field \"v\" must be a number, got \(other.typeName)")
        }
        let items: [JSONValue]?
        switch body["gaps"] {
        case nil, .null: items = nil
        case .array(let values): items = values
        case .some(let other):
            throw APIError(.badRequest, "field \"gaps\" must be an array of gap intervals, got \(other.typeName)")
        }
        try checkVersion(version)
        guard let items else { return parsed }
        try checkGapCount(items.count)
        var result = parsed
        result.hasGaps = true
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item["id"] else {
                throw APIError(.badRequest, "gap \(index) has no string \"id\"; " + Self.gapIDAdvice)
            }
            try checkGapID(id, index: index, seen: &seen)
            do throws(SampleProblem) {
                let fields = try FieldReader(item, label: "gap \(index)")
                let start = try fields.requiredNumber("start")
                let end = try fields.requiredNumber("end")
                for (name, value) in [("start", start), ("end", end)]
                where value != value.rounded() || abs(value) > 1e15 {
                    throw fields.problem(name, "must be whole epoch milliseconds, got \(value)")
                }
                guard let reason = try fields.string("reason") else {
                    throw fields.problem("reason", "is required: one of \(Self.reasons)")
                }
                let wire = WireGap(
                    id: id, start: Int64(start), end: Int64(end), reason: reason, detail: try fields.string("detail"))
                validate(wire, now: now, into: &result)
            } catch {
                result.gapsRejected.append((id: id, reason: error.message))
            }
        }
        return result
    }

    private static let gapIDAdvice =
        "every gap needs the UUID minted on the phone (1…64 characters); the whole batch was refused so nothing is lost"

    private static var reasons: String { ReportedInterval.allReasons.joined(separator: ", ") }

    private func checkVersion(_ version: Double?) throws(APIError) {
        guard let version else { return }
        guard version == version.rounded(), version >= 1, version < 1_000_000 else {
            throw APIError(
                .badRequest,
                "field \"v\" must be the batch version, a whole number from 1 (this server reads 1 to 3), got \(version)"
            )
        }
    }

    private func checkGapCount(_ count: Int) throws(APIError) {
        guard count <= Self.maximumGaps else {
            throw APIError(
                .contentTooLarge,
                "the batch has \(count) gap intervals, more than the limit of \(Self.maximumGaps); send them in several batches"
            )
        }
    }

    private func checkGapID(_ id: String, index: Int, seen: inout Set<String>) throws(APIError) {
        guard !id.isEmpty, id.utf8.count <= 64 else {
            throw APIError(.badRequest, "gap \(index) has an unusable \"id\"; " + Self.gapIDAdvice)
        }
        guard seen.insert(id).inserted else {
            throw APIError(.badRequest, "gap \(index) repeats id \"\(id)\"; gap ids must be unique in a batch")
        }
    }

    private func validate(_ wire: WireGap, now: Instant, into result: inout Parsed) {
        do throws(SampleRuleViolation) {
            let interval = try wire.interval()
            guard interval.end <= now + rules.futureTolerance else {
                throw SampleRuleViolation(
                    .gap, field: "gaps",
                    "gap end \(wire.end) ms is more than a day after the server's clock; the phone's clock is wrong")
            }
            result.gaps.append(IngestGap(id: wire.id, interval: interval))
        } catch {
            result.gapsRejected.append((id: wire.id, reason: "gap: \(error.description)"))
        }
    }
}

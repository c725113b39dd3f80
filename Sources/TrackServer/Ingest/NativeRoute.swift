import HTTPTypes
import Hummingbird
import LocationLog
import Logging

extension IngestController {
    /// `POST /v1/batches`: answers only after the commit that holds the batch (``SampleCommitter``).
    func ingestNative(_ request: Request, context: some RequestContext) async throws -> Response {
        try await countingRefusals(.native) {
            let device = try await auth.writer(token: Authenticator.bearer(request, allowQuery: false))
            let bytes = try await bodyReader.read(request)
            let parser = NativeBatchParser(rules: rules, maxSamples: maxSamplesPerBatch)
            let parsed = try parser.parse(bytes: bytes, device: device, now: clock.now)
            let outcome = try await committer.insert(parsed.samples, device: device, at: clock.now, bytes: bytes.count)
            // After the samples' commit, before the answer: an acknowledged gap is stored.
            if !parsed.gaps.isEmpty { try await intervals.insertGaps(parsed.gaps, device: device, at: clock.now) }
            try await noteTimeZone(parsed.timeZone, device: device, samples: parsed.samples)
            updateTimeline(parsed.samples, outcome: outcome, device: device)
            await waitForTimeline()
            record(.native, outcome: outcome, rejected: parsed.rejected.count)
            context.logger.info(
                "batch stored",
                metadata: [
                    "device": "\(device)", "batch": "\(LogText.bounded(parsed.batch ?? "-"))",
                    "accepted": "\(outcome.accepted.count)",
                    "duplicates": "\(outcome.duplicates.count)", "rejected": "\(parsed.rejected.count)",
                ])
            var answer = BatchResponse(
                accepted: outcome.accepted, duplicates: outcome.duplicates,
                rejected: parsed.rejected.map { BatchResponse.Rejection(id: $0.id, reason: $0.reason) })
            if parsed.hasGaps {
                answer.gapsStored = parsed.gaps.map(\.id)
                answer.gapsRejected = parsed.gapsRejected.map { BatchResponse.Rejection(id: $0.id, reason: $0.reason) }
            }
            answer.tzRejected = parsed.timeZoneRejected
            return try Response.json(batch: answer)
        }
    }
}

import Logging

extension IngestController {
    /// Keeps a point aside with its reason (``TrackStore/quarantine(device:source:reason:raw:at:)``)
    /// and counts it in `/metrics` by protocol, so an operator sees quarantines without reading
    /// every device's list.
    func quarantine(device: String, source: IngestSource, reason: String, raw: String, logger: Logger) async throws {
        try await ingestLog.quarantine(device: device, source: source, reason: reason, raw: raw, at: clock.now)
        await metrics.add("bgtrack_quarantined_total", ["protocol": source.rawValue])
        logger.notice(
            "\(source.rawValue) point quarantined",
            metadata: ["device": "\(device)", "reason": "\(LogText.bounded(reason))"])
    }

    /// A single-point client's quarantined point, counted as a rejected sample of its protocol.
    func recordQuarantinedSample(_ source: IngestSource) {
        metrics.recordSamples(protocol: source.rawValue, accepted: 0, duplicates: 0, rejected: 1)
    }
}

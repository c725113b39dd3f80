/// What a ``DeviceLoad`` run did, before the store is checked.
package struct LoadResult: Sendable {
    /// Wall-clock length of the run.
    package var seconds = 0.0
    /// Requests sent, answered or failed.
    package var requests = 0
    package var acknowledgedRequests = 0
    package var acknowledgedSamples = 0
    /// Acknowledged samples the server said it already had (native only): resends after an error.
    package var serverDuplicates = 0
    /// Failed requests by kind (`HTTP 503`, `transport: …`, `200 acknowledging 3 of 5`).
    package var errors: [String: Int] = [:]
    /// Acknowledgement latency of every acknowledged request, microseconds, sorted.
    package var latencies: [UInt32] = []
    /// Every device, in device order.
    package var devices: [DeviceTally] = []

    package init() {}

    package var errorCount: Int { errors.values.reduce(0, +) }

    /// The latency at `fraction` (0…1), in milliseconds; `nil` when nothing was acknowledged.
    package func latencyMilliseconds(_ fraction: Double) -> Double? {
        Percentile.of(latencies, fraction).map { Double($0) / 1000 }
    }

    mutating func merge(_ part: LoadResult) {
        requests += part.requests
        acknowledgedRequests += part.acknowledgedRequests
        acknowledgedSamples += part.acknowledgedSamples
        serverDuplicates += part.serverDuplicates
        errors.merge(part.errors, uniquingKeysWith: +)
        latencies += part.latencies
        devices += part.devices
    }
}

/// One device's share of a run.
package struct DeviceTally: Hashable, Sendable {
    package var device: LoadDevice
    /// Its first `acknowledged` samples were acknowledged.
    package var acknowledged = 0
    /// Samples put in a request at least once; `sent - acknowledged` were in flight when the run
    /// ended (after an error) and may or may not be stored.
    package var sent = 0
    /// Why it stopped before the end of the run, if it did.
    package var stopped: String?

    package init(device: LoadDevice, acknowledged: Int = 0, sent: Int = 0, stopped: String? = nil) {
        self.device = device
        self.acknowledged = acknowledged
        self.sent = sent
        self.stopped = stopped
    }
}

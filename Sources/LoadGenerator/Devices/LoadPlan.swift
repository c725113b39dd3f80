package import BackgroundCore

/// A simulated device: its own name and token, on one of the servers.
package struct LoadDevice: Hashable, Sendable {
    package var name: String
    package var token: String
    /// Its number in the run (0…), which also places its track.
    package var index: Int
    /// Which of ``LoadPlan/targets`` it uploads to.
    package var server: Int

    package init(name: String, token: String, index: Int, server: Int) {
        self.name = name
        self.token = token
        self.index = index
        self.server = server
    }
}

/// Everything a load run does: who sends what, to which server, over how many connections, for
/// how long.
package struct LoadPlan: Sendable {
    package var targets: [LoadTarget]
    package var devices: [LoadDevice]
    package var `protocol`: LoadProtocol
    /// Samples per request (1 for the single-point protocols).
    package var batch: Int
    /// Keep-alive connections; each serves its devices in turn.
    package var connections: Int
    /// No request starts after this; one under way is finished.
    package var duration: Duration
    /// Stop each device after this many acknowledged requests, if set.
    package var requestsPerDevice: Int?
    /// The time of every device's first sample (epoch ms). Sample `i` is at `firstSampleTime + i·step`.
    package var firstSampleTime: Int64
    /// The most samples a device may send, so its last time stays at or before `now`.
    package var samplesPerDeviceLimit: Int
    /// Seconds a read or write may wait before the request counts as a transport error.
    package var socketTimeout = 30

    /// Devices spread round-robin over `targets` (device `n` on server `n mod count`), their first
    /// samples 30 days before `now` (whole second).
    /// - Parameters:
    ///   - now: the current time, epoch milliseconds.
    package init(
        targets: [LoadTarget], devices: [(name: String, token: String)], protocol: LoadProtocol, batch: Int,
        connections: Int, duration: Duration, requestsPerDevice: Int?, now: Int64
    ) {
        self.targets = targets
        self.devices = devices.enumerated().map { index, device in
            LoadDevice(name: device.name, token: device.token, index: index, server: index % max(1, targets.count))
        }
        self.protocol = `protocol`
        self.batch = batch
        // At least one connection per server that has devices, at most one per device.
        self.connections = max(min(targets.count, devices.count), min(connections, max(1, devices.count)))
        self.duration = duration
        self.requestsPerDevice = requestsPerDevice
        let span: Int64 = 30 * 86_400_000
        // On a whole second: OwnTracks' `tst` carries seconds, and the grid must survive that.
        firstSampleTime = (now - span) / 1000 * 1000
        samplesPerDeviceLimit = Int(span / `protocol`.step)
    }

    /// The device's sample number `index` (0…): its time and position.
    package func sample(device: LoadDevice, index: Int) -> SampleValues {
        SampleValues(
            time: Instant(milliseconds: firstSampleTime + Int64(index) * `protocol`.step),
            latitude: 10 + Double(device.index % 4000) * 0.01,
            longitude: 20 + Double(index % 1_000_000) * 0.00001)
    }

    /// The server connection `connection` talks to: connection `c` on server `c mod count`.
    package func server(ofConnection connection: Int) -> Int { connection % max(1, targets.count) }

    /// The devices connection `connection` serves: those of its server, dealt round-robin over
    /// that server's connections.
    package func devices(ofConnection connection: Int) -> [LoadDevice] {
        let servers = max(1, targets.count)
        let server = connection % servers
        let peers = (0..<connections).filter { $0 % servers == server }
        guard let position = peers.firstIndex(of: connection) else { return [] }
        let own = devices.filter { $0.server == server }
        return own.enumerated().filter { $0.offset % peers.count == position }.map(\.element)
    }
}

import BackgroundCore
import Foundation

/// Runs a ``LoadPlan``: one thread per connection, each serving its devices in turn, every device
/// sending its samples in order and resending the same request until it is acknowledged.
///
/// A device moves to its next samples only after the server acknowledged the previous ones, so the
/// acknowledged samples of a device are always its first ``DeviceTally/acknowledged``; those
/// between that and ``DeviceTally/sent`` were sent but not acknowledged when the run ended (only
/// after an error), and may or may not be stored.
package enum DeviceLoad {
    /// Runs the plan to its end (duration, or every device's request count) and gathers the result.
    /// `progress`, if given, is updated after every request.
    package static func run(_ plan: LoadPlan, progress: LoadProgress? = nil) async -> LoadResult {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + plan.duration
        let parts = await onThreads(plan.connections) { connection in
            var worker = Worker(
                plan: plan, target: plan.targets[plan.server(ofConnection: connection)],
                devices: plan.devices(ofConnection: connection), clock: clock, deadline: deadline,
                progress: progress)
            worker.run()
            return worker.result
        }
        var result = LoadResult()
        for part in parts { result.merge(part) }
        result.seconds = (clock.now - start).seconds
        result.latencies.sort()
        result.devices.sort { $0.device.index < $1.device.index }
        return result
    }

    /// One connection's loop.
    private struct Worker {
        let plan: LoadPlan
        let target: LoadTarget
        let clock: ContinuousClock
        let deadline: ContinuousClock.Instant
        let progress: LoadProgress?
        var states: [State]
        var result = LoadResult()
        var connection: LoadConnection?
        var connectFailures = 0

        struct State {
            var tally: DeviceTally
            var requests = 0
            var pending: [UInt8]?
            var pendingCount = 0
            var notBefore: ContinuousClock.Instant?
            var failures = 0
            var finished = false
        }

        init(
            plan: LoadPlan, target: LoadTarget, devices: [LoadDevice], clock: ContinuousClock,
            deadline: ContinuousClock.Instant, progress: LoadProgress?
        ) {
            self.plan = plan
            self.progress = progress
            self.target = target
            self.clock = clock
            self.deadline = deadline
            states = devices.map { State(tally: DeviceTally(device: $0)) }
        }

        mutating func run() {
            var cursor = 0
            while clock.now < deadline, let index = next(from: cursor) {
                cursor = index + 1
                guard prepare(index) else { continue }
                let before = (result.acknowledgedSamples, result.acknowledgedRequests, result.errorCount)
                if connection != nil || connect() { send(index) }
                progress?.add(
                    samples: result.acknowledgedSamples - before.0, requests: result.acknowledgedRequests - before.1,
                    errors: result.errorCount - before.2)
            }
            result.devices = states.map(\.tally)
        }

        /// The next device in turn that may send now; waits for one that backs off; `nil` when every
        /// device is finished or the deadline passed while waiting.
        mutating func next(from cursor: Int) -> Int? {
            while clock.now < deadline {
                let now = clock.now
                var earliest: ContinuousClock.Instant?
                for step in 0..<states.count {
                    let index = (cursor + step) % states.count
                    guard !states[index].finished else { continue }
                    if let notBefore = states[index].notBefore, notBefore > now {
                        earliest = earliest.map { min($0, notBefore) } ?? notBefore
                        continue
                    }
                    return index
                }
                guard let earliest else { return nil }
                pause(until: earliest)
            }
            return nil
        }

        /// Encodes the device's next request unless one is pending; false when the device is done.
        mutating func prepare(_ index: Int) -> Bool {
            guard states[index].pending == nil else { return true }
            if let limit = plan.requestsPerDevice, states[index].requests >= limit {
                states[index].finished = true
                return false
            }
            let sent = states[index].tally.sent
            let count = min(plan.batch, plan.samplesPerDeviceLimit - sent)
            guard count > 0 else {
                states[index].tally.stopped = "used all \(plan.samplesPerDeviceLimit) sample times"
                states[index].finished = true
                return false
            }
            states[index].pending = plan.protocol.request(
                for: states[index].tally.device, samples: sent..<sent + count, plan: plan, host: target.hostHeader)
            states[index].pendingCount = count
            states[index].tally.sent += count
            return true
        }

        mutating func connect() -> Bool {
            do {
                connection = try LoadConnection(target, timeout: plan.socketTimeout)
                connectFailures = 0
                return true
            } catch {
                result.errors["transport: \(error)", default: 0] += 1
                connectFailures += 1
                pause(until: clock.now + backoff(connectFailures))
                return false
            }
        }

        mutating func send(_ index: Int) {
            guard let connection, let request = states[index].pending else { return }
            let sentAt = clock.now
            result.requests += 1
            let response: LoadResponse
            do {
                response = try connection.roundTrip(request)
            } catch {
                self.connection = nil
                result.errors["transport: \(error)", default: 0] += 1
                retry(index, after: nil)
                return
            }
            let latency = Percentile.microseconds(clock.now - sentAt)
            if response.closes { self.connection = nil }
            switch LoadAck(response, count: states[index].pendingCount, protocol: plan.protocol) {
            case .complete(let duplicates):
                result.latencies.append(latency)
                result.acknowledgedRequests += 1
                result.acknowledgedSamples += states[index].pendingCount
                result.serverDuplicates += duplicates
                states[index].tally.acknowledged += states[index].pendingCount
                states[index].requests += 1
                states[index].pending = nil
                states[index].failures = 0
                states[index].notBefore = nil
            case .retry(let why, let after):
                result.errors[why, default: 0] += 1
                retry(index, after: after)
            case .incomplete(let why), .refused(let why):
                result.errors[why, default: 0] += 1
                states[index].tally.stopped = why
                states[index].finished = true
            }
        }

        /// The device resends the same request later: after `Retry-After` (at most a minute), else
        /// after an exponential back-off.
        mutating func retry(_ index: Int, after seconds: Int?) {
            states[index].failures += 1
            let wait = seconds.map { Duration.seconds(min(max($0, 0), 60)) } ?? backoff(states[index].failures)
            states[index].notBefore = clock.now + wait
        }

        /// 50 ms doubling to 2 s.
        func backoff(_ failures: Int) -> Duration {
            .milliseconds(min(2_000, 50 << min(failures - 1, 6)))
        }

        /// Sleeps until `instant` or the deadline, whichever is first: only after an error.
        func pause(until instant: ContinuousClock.Instant) {
            let end = min(instant, deadline)
            let wait = (end - clock.now).seconds
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
    }
}

import BackgroundCore
import Foundation

/// `connections` threads, each with one keep-alive connection, sending requests back to back for
/// `seconds`; every response's status and latency is kept (`bgtrack-bench single-point`).
package struct LoadRun: Sendable {
    package var requests = 0
    package var ok = 0
    /// Non-200 answers and transport errors, by what happened.
    package var failures: [String: Int] = [:]
    package var seconds = 0.0
    package var latencies: [Double] = []

    package init() {}

    package var rate: Double { Double(requests) / seconds }

    package func percentile(_ fraction: Double) -> Double {
        Percentile.of(latencies.sorted(), fraction) ?? .nan
    }

    /// Runs the load. `request(connection, index)` encodes the index-th request of a connection.
    package static func run(
        port: Int, connections: Int, seconds: Double,
        request: @escaping @Sendable (_ connection: Int, _ index: Int) -> [UInt8]
    ) async -> LoadRun {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        let runs = await onThreads(connections) { connection in
            var run = LoadRun()
            func drive() {
                let socket: LoadConnection
                do {
                    socket = try LoadConnection(port: port)
                } catch {
                    run.failures["\(error)", default: 0] += 1
                    return
                }
                var index = 0
                while clock.now < deadline {
                    let bytes = request(connection, index)
                    index += 1
                    let sent = clock.now
                    do {
                        let status = try socket.roundTrip(bytes).status
                        run.latencies.append((clock.now - sent).seconds)
                        run.requests += 1
                        if status == 200 { run.ok += 1 } else { run.failures["HTTP \(status)", default: 0] += 1 }
                    } catch {
                        run.failures["\(error)", default: 0] += 1
                        return
                    }
                }
            }
            drive()
            run.seconds = (clock.now - start).seconds
            return run
        }
        var total = LoadRun()
        for run in runs {
            total.requests += run.requests
            total.ok += run.ok
            total.failures.merge(run.failures, uniquingKeysWith: +)
            total.seconds = max(total.seconds, run.seconds)
            total.latencies += run.latencies
        }
        return total
    }
}

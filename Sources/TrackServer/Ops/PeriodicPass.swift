import BackgroundCore
import Logging

/// A background pass that runs now and then every `interval` on `clock` until its task is
/// cancelled: what `serve`'s DetailWorker and RetentionSweeper loop on. A failed pass is logged
/// once per kind of failure in a row (a full disk would otherwise log every few seconds), a full
/// disk is recorded for `/healthz`, and the next pass waits `retryAfterFailure`.
struct PeriodicPass: Sendable {
    /// Names the pass in its log lines ("detail levels", "retention sweep").
    var name: String
    /// What a failure means for readers, appended to the failure's log line.
    var consequence: String
    var interval: Duration
    var retryAfterFailure: Duration
    var clock: any Clock<Duration>
    var environment: TrackServerEnvironment

    func run(_ pass: @Sendable () async throws -> Void) async {
        var lastFailure: String?
        while !Task.isCancelled {
            var wait = interval
            do {
                try await pass()
                if lastFailure != nil { environment.logger.notice("\(name): working again") }
                lastFailure = nil
            } catch is CancellationError {
                return
            } catch {
                let text = "\(error)"
                if text != lastFailure {
                    environment.logger.error(
                        "\(name): a pass failed; \(consequence)",
                        metadata: ["error": "\(LogText.bounded(text, limit: 300))"])
                }
                if StorageHealth.isFull(error) { environment.storage.recordFull(error, at: environment.clock.now) }
                lastFailure = text
                wait = retryAfterFailure
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                return
            }
        }
    }
}

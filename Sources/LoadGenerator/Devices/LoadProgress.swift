import Foundation

/// Running totals of a ``DeviceLoad`` run, readable while it runs (the command prints them every
/// few seconds). Lock-guarded, hence `@unchecked Sendable`.
package final class LoadProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var samples = 0
    private var requests = 0
    private var errors = 0

    package init() {}

    func add(samples: Int, requests: Int, errors: Int) {
        lock.withLock {
            self.samples += samples
            self.requests += requests
            self.errors += errors
        }
    }

    /// Acknowledged samples and requests, and errors, so far.
    package var snapshot: (samples: Int, requests: Int, errors: Int) {
        lock.withLock { (samples, requests, errors) }
    }
}

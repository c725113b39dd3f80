public import BackgroundCore
public import Foundation

/// A shared virtual "now" for tests: code under test reads it through a closure, the test (or a
/// fake transport simulating a slow upload) advances it. Never reads the wall clock.
///
/// `@unchecked Sendable`: the only state is `current`, and every access holds `lock`.
public final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Instant

    /// Where virtual time starts unless a test says otherwise: 2024-11-22 01:46:40 UTC.
    public static let defaultStart = Instant(milliseconds: 1_732_240_000_000)

    public init(_ start: Instant = ManualTime.defaultStart) {
        current = start
    }

    public var now: Instant { lock.withLock { current } }

    /// A closure to inject wherever code takes `now: @Sendable () -> Instant`.
    public var reader: @Sendable () -> Instant { { [self] in now } }

    public func advance(by duration: Duration) {
        lock.withLock { current += duration }
    }
}

/// Deterministic UUIDs: 00000000-0000-4000-8000-<counter>, for readable test failures.
public final class SequentialIDs: @unchecked Sendable {
    // `@unchecked Sendable`: `counter` is only touched while holding `lock`.
    private let lock = NSLock()
    private var counter: UInt64 = 0
    private let prefix: String

    public init(prefix: String = "00000000-0000-4000-8000") {
        self.prefix = prefix
    }

    public func next() -> UUID {
        let value = lock.withLock {
            counter += 1
            return counter
        }
        let hex = String(value, radix: 16)
        let text = "\(prefix)-\(String(repeating: "0", count: max(0, 12 - hex.count)))\(hex)"
        return UUID(uuidString: text) ?? UUID()
    }

    public var generator: @Sendable () -> UUID { { [self] in next() } }
}

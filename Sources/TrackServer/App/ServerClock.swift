public import BackgroundCore
import Foundation

/// The server's source of "now", and of waiting, injected so tests drive session expiry and
/// offline status without sleeping.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Instant
    private let wait: @Sendable (Duration) async -> Void

    /// A clock the caller drives (tests, the simulator). Its time does not pass by waiting, so
    /// ``pause(for:)`` returns at once.
    public init(_ read: @escaping @Sendable () -> Instant) {
        self.init(read: read) { _ in }
    }

    private init(read: @escaping @Sendable () -> Instant, wait: @escaping @Sendable (Duration) async -> Void) {
        self.read = read
        self.wait = wait
    }

    public var now: Instant { read() }

    /// Lets `duration` pass on this clock before returning (a deferred start, not a timeout).
    public func pause(for duration: Duration) async {
        await wait(duration)
    }

    /// The wall clock: the only place the server reads real time or waits for it.
    public static let system = ServerClock(
        read: { Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) },
        wait: { try? await Task.sleep(for: $0) })
}

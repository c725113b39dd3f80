public import BackgroundCore
import Foundation

/// The server's source of "now", injected so tests drive session expiry and offline status
/// without sleeping.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Instant

    public init(_ read: @escaping @Sendable () -> Instant) {
        self.read = read
    }

    public var now: Instant { read() }

    /// The wall clock: the only place the server reads real time.
    public static let system = ServerClock {
        Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}

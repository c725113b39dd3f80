public import BackgroundCore
import Synchronization

/// Bounds how often share pages are served: per link and per client address, in fixed windows on
/// the server's clock (so tests move time by hand). Over the limit, a request is answered 429 with
/// `Retry-After` until its window ends. A request with a malformed or unknown secret counts
/// against its address too, so guessing secrets is as slow as the address limit.
///
/// Memory is bounded: at most `maxKeys` windows are kept; when full, ended windows are dropped,
/// and if none has ended every new key is refused until one does (a flood of addresses cannot
/// grow the table).
public final class ShareRateLimiter: Sendable {
    public struct Limits: Sendable, Hashable {
        /// Pages one link serves per window, whoever asks.
        public var perLink: Int = 60
        /// Share requests (any link, valid or not) one client address makes per window.
        public var perAddress: Int = 30
        public var window: Duration = .seconds(60)
        public var maxKeys: Int = 10_000

        public init() {}
    }

    private struct Window {
        var start: Instant
        var count: Int
    }

    public let limits: Limits
    private let windows = Mutex<[String: Window]>([:])

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Counts one request for `key` (`link:ID` or `addr:ADDRESS`) at `now`; `nil` if allowed,
    /// else how long until it is.
    public func take(_ key: String, limit: Int, at now: Instant) -> Duration? {
        windows.withLock { windows in
            if var window = windows[key], now < window.start + limits.window {
                guard window.count < limit else { return window.start + limits.window - now }
                window.count += 1
                windows[key] = window
                return nil
            }
            if windows[key] == nil, windows.count >= limits.maxKeys {
                windows = windows.filter { now < $0.value.start + limits.window }
                if windows.count >= limits.maxKeys {
                    return windows.values.map { $0.start + limits.window - now }.min() ?? limits.window
                }
            }
            guard limit > 0 else { return limits.window }
            windows[key] = Window(start: now, count: 1)
            return nil
        }
    }

    /// Windows kept now (for tests of the memory bound).
    public var keyCount: Int { windows.withLock { $0.count } }
}

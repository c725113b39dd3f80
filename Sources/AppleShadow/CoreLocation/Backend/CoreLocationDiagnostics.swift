#if !canImport(UIKit)
    import Foundation

    /// Shadow only: which of a session diagnostic's properties are true. A backend makes the
    /// diagnostics iOS 18 would send (docs/ios-policy.md §Causes) and hands them to a session with
    /// `CoreLocationShadow.deliverDiagnostic(_:toSession:)`.
    public struct CLShadowDiagnosticFlags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let alwaysAuthorizationDenied = CLShadowDiagnosticFlags(rawValue: 1 << 0)
        public static let authorizationDenied = CLShadowDiagnosticFlags(rawValue: 1 << 1)
        public static let authorizationDeniedGlobally = CLShadowDiagnosticFlags(rawValue: 1 << 2)
        public static let authorizationRequestInProgress = CLShadowDiagnosticFlags(rawValue: 1 << 3)
        public static let authorizationRestricted = CLShadowDiagnosticFlags(rawValue: 1 << 4)
        public static let fullAccuracyDenied = CLShadowDiagnosticFlags(rawValue: 1 << 5)
        public static let insufficientlyInUse = CLShadowDiagnosticFlags(rawValue: 1 << 6)
        public static let serviceSessionRequired = CLShadowDiagnosticFlags(rawValue: 1 << 7)
        /// What a `CLBackgroundActivitySession.Diagnostic` has (no Always or accuracy property).
        public static let activitySessionProperties: CLShadowDiagnosticFlags = [
            .authorizationDenied, .authorizationDeniedGlobally, .authorizationRequestInProgress,
            .authorizationRestricted, .insufficientlyInUse, .serviceSessionRequired,
        ]
    }

    /// Shadow only: a session's diagnostics, as an `AsyncStream` for `for try await` and, where the
    /// host runs the app's code synchronously (the simulator), observers called at once.
    final class ShadowDiagnosticStream: @unchecked Sendable {
        // Used on the main thread only, like the rest of the shadow.
        let stream: AsyncStream<CLShadowDiagnosticFlags>
        private let continuation: AsyncStream<CLShadowDiagnosticFlags>.Continuation
        var observers: [(CLShadowDiagnosticFlags) -> Void] = []

        init() {
            (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8))
        }

        func deliver(_ flags: CLShadowDiagnosticFlags) {
            if observers.isEmpty {
                continuation.yield(flags)
            } else {
                for observer in observers { observer(flags) }
            }
        }
    }

    /// Shadow only: the live sessions' diagnostics, by session.
    final class ShadowSessionRegistry: @unchecked Sendable {
        private struct Weak { weak var stream: ShadowDiagnosticStream? }
        private var streams: [ObjectIdentifier: Weak] = [:]

        func add(_ session: AnyObject, _ stream: ShadowDiagnosticStream) {
            streams = streams.filter { $0.value.stream != nil }
            streams[ObjectIdentifier(session)] = Weak(stream: stream)
        }

        func stream(_ id: ObjectIdentifier) -> ShadowDiagnosticStream? { streams[id]?.stream }
    }

    extension CoreLocationShadow {
        /// Used on the main thread only, like the backend.
        static let sessions = ShadowSessionRegistry()

        /// Shadow only: the system sends a diagnostic to the session `id` (a `CLServiceSession` or
        /// `CLBackgroundActivitySession` the backend was told of); an activity session's keeps only
        /// the properties it has. Returns whether the session still exists.
        @discardableResult
        public static func deliverDiagnostic(_ flags: CLShadowDiagnosticFlags, toSession id: ObjectIdentifier) -> Bool {
            guard let stream = sessions.stream(id) else { return false }
            stream.deliver(flags)
            return true
        }
    }

    extension CLServiceSession.Diagnostics {
        /// The sequence's element, as Apple's `next()` names it (`Diagnostics.Element`).
        public typealias Element = CLServiceSession.Diagnostic

        /// Shadow only: calls `observer` at once with each diagnostic, instead of the async
        /// sequence, for a host that runs the app's code synchronously (the simulator).
        public func shadowObserve(_ observer: @escaping (CLServiceSession.Diagnostic) -> Void) {
            stream.observers.append { observer(CLServiceSession.Diagnostic(flags: $0)) }
        }
    }

    @available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *)
    extension CLBackgroundActivitySession.Diagnostics {
        /// The sequence's element, as Apple's `next()` names it (`Diagnostics.Element`).
        public typealias Element = CLBackgroundActivitySession.Diagnostic

        /// Shadow only: calls `observer` at once with each diagnostic (see `CLServiceSession`'s).
        public func shadowObserve(_ observer: @escaping (CLBackgroundActivitySession.Diagnostic) -> Void) {
            stream.observers.append {
                observer(CLBackgroundActivitySession.Diagnostic(flags: $0.intersection(.activitySessionProperties)))
            }
        }
    }
#endif

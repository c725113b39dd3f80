#if !canImport(UIKit)
    import Foundation

    /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3
    @available(iOS 17.0, macCatalyst 17.0, visionOS 1.0, watchOS 10.0, *)
    public final class CLBackgroundActivitySession: Sendable {
        /// The sequence `diagnostics` returns (one per session, as the system keeps one state).
        internal let diagnosticsStream = ShadowDiagnosticStream()

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/init()
        public init() {
            CoreLocationShadow.sessions.add(self, diagnosticsStream)
            CoreLocationShadow.backend.backgroundActivitySessionStarted(ObjectIdentifier(self))
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/invalidate()
        public final func invalidate() {
            CoreLocationShadow.backend.backgroundActivitySessionInvalidated(ObjectIdentifier(self))
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic
        @available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *)
        public struct Diagnostic {
            internal let flags: CLShadowDiagnosticFlags

            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationdenied
            public var authorizationDenied: Bool { flags.contains(.authorizationDenied) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationdeniedglobally
            public var authorizationDeniedGlobally: Bool { flags.contains(.authorizationDeniedGlobally) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationrequestinprogress
            public var authorizationRequestInProgress: Bool { flags.contains(.authorizationRequestInProgress) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationrestricted
            public var authorizationRestricted: Bool { flags.contains(.authorizationRestricted) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/insufficientlyinuse
            public var insufficientlyInUse: Bool { flags.contains(.insufficientlyInUse) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/servicesessionrequired
            public var serviceSessionRequired: Bool { flags.contains(.serviceSessionRequired) }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class
        @available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *)
        public final class Diagnostics: AsyncSequence {
            internal let stream: ShadowDiagnosticStream

            internal init(_ stream: ShadowDiagnosticStream) { self.stream = stream }

            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/makeasynciterator()
            public final func makeAsyncIterator() -> CLBackgroundActivitySession.Diagnostics.Iterator {
                Iterator(base: stream.stream.makeAsyncIterator())
            }

            /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/iterator
            public struct Iterator: AsyncIteratorProtocol {
                internal var base: AsyncStream<CLShadowDiagnosticFlags>.Iterator

                /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/iterator/next()
                public mutating func next() async throws -> CLBackgroundActivitySession.Diagnostics.Element? {
                    await base.next().map { Diagnostic(flags: $0.intersection(.activitySessionProperties)) }
                }
            }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.property
        @available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *)
        public final var diagnostics: CLBackgroundActivitySession.Diagnostics { Diagnostics(diagnosticsStream) }
    }

    /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n
    @available(iOS 18.0, macCatalyst 18.0, tvOS 18.0, visionOS 1.0, watchOS 11.0, *)
    public final class CLServiceSession: Sendable {
        /// The sequence `diagnostics` returns (one per session, as the system keeps one state).
        internal let diagnosticsStream = ShadowDiagnosticStream()

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement
        public enum AuthorizationRequirement: Hashable {
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/always
            case always
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/none
            case none
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/wheninuse
            case whenInUse
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/init(authorization:)
        public init(authorization: CLServiceSession.AuthorizationRequirement) {
            CoreLocationShadow.sessions.add(self, diagnosticsStream)
            CoreLocationShadow.backend.serviceSessionStarted(ObjectIdentifier(self), authorization: authorization)
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/invalidate()
        public final func invalidate() { CoreLocationShadow.backend.serviceSessionInvalidated(ObjectIdentifier(self)) }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic
        public struct Diagnostic {
            internal let flags: CLShadowDiagnosticFlags

            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/alwaysauthorizationdenied
            public var alwaysAuthorizationDenied: Bool { flags.contains(.alwaysAuthorizationDenied) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdenied
            public var authorizationDenied: Bool { flags.contains(.authorizationDenied) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdeniedglobally
            public var authorizationDeniedGlobally: Bool { flags.contains(.authorizationDeniedGlobally) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrequestinprogress
            public var authorizationRequestInProgress: Bool { flags.contains(.authorizationRequestInProgress) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrestricted
            public var authorizationRestricted: Bool { flags.contains(.authorizationRestricted) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/fullaccuracydenied
            public var fullAccuracyDenied: Bool { flags.contains(.fullAccuracyDenied) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/insufficientlyinuse
            public var insufficientlyInUse: Bool { flags.contains(.insufficientlyInUse) }
            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/servicesessionrequired
            public var serviceSessionRequired: Bool { flags.contains(.serviceSessionRequired) }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class
        public final class Diagnostics: AsyncSequence {
            internal let stream: ShadowDiagnosticStream

            internal init(_ stream: ShadowDiagnosticStream) { self.stream = stream }

            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/makeasynciterator()
            public final func makeAsyncIterator() -> CLServiceSession.Diagnostics.Iterator {
                Iterator(base: stream.stream.makeAsyncIterator())
            }

            /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/iterator
            public struct Iterator: AsyncIteratorProtocol {
                internal var base: AsyncStream<CLShadowDiagnosticFlags>.Iterator

                /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/iterator/next()
                public mutating func next() async throws -> CLServiceSession.Diagnostics.Element? {
                    await base.next().map(Diagnostic.init(flags:))
                }
            }
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.property
        public final var diagnostics: CLServiceSession.Diagnostics { Diagnostics(diagnosticsStream) }
    }
#endif

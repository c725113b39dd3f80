#if !canImport(UIKit)
    import Foundation
    #if canImport(FoundationNetworking)
        public import FoundationNetworking
    #endif

    // swift-corelibs-foundation declares `background(withIdentifier:)` but marks it unavailable
    // ("Not available on non-Darwin platforms"); this declaration takes its place so the upload
    // adapter compiles unchanged. It returns an ordinary configuration: Linux has no daemon to
    // carry transfers across launches, and the shell's tests drive uploads through a fake.
    extension URLSessionConfiguration {
        /// Apple: https://developer.apple.com/documentation/foundation/urlsessionconfiguration/background(withidentifier:)
        public class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
            URLSessionConfiguration.default
        }

        /// Apple: https://developer.apple.com/documentation/foundation/urlsessionconfiguration/sessionsendslaunchevents
        public var sessionSendsLaunchEvents: Bool {
            get { true }
            // No daemon on Linux relaunches the app; the setting has nothing to change.
            set {}
        }
    }
#endif

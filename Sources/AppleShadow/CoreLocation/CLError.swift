#if !canImport(UIKit)
    /// Apple: https://developer.apple.com/documentation/corelocation/clerror
    ///
    /// Only the codes the shell reads. Core Location passes it to `didFailWithError`.
    public struct CLError: Error, Hashable, Sendable {
        /// Apple: https://developer.apple.com/documentation/corelocation/clerror/code
        public enum Code: Int, Sendable {
            /// Apple: https://developer.apple.com/documentation/corelocation/clerror/code/locationunknown
            case locationUnknown = 0
            /// Apple: https://developer.apple.com/documentation/corelocation/clerror/code/denied
            case denied = 1
            /// Apple: https://developer.apple.com/documentation/corelocation/clerror/code/network
            case network = 2
        }

        /// Apple: https://developer.apple.com/documentation/corelocation/clerror/code-swift.property
        public let code: Code

        package init(_ code: Code) {
            self.code = code
        }
    }
#endif

public import BackgroundCore

extension SyncMachine {
    /// What the sync machine asks the shell to tell the user. The shell posts ``userNotice`` (the
    /// iOS shell as a local notification, the simulator in its report, the Linux device as a line);
    /// ``message`` is the detailed text that goes to the diagnostics log.
    public enum Notice: Hashable, Sendable {
        /// The server refused the device token (HTTP 401 or 403): uploads hold until the
        /// credentials change; the samples stay on the phone.
        case tokenRefused(status: Int)

        /// The notification kind every shell posts for it.
        public var userNotice: UserNotice {
            switch self {
            case .tokenRefused: .uploadsHeld
            }
        }

        /// The detailed text, with what happened and what to do.
        public var message: String {
            switch self {
            case .tokenRefused(let status):
                "Uploads are paused: the server refused this device's token (HTTP \(status)). "
                    + "Sign in again or set a new token; your locations stay on the phone until then."
            }
        }
    }
}

/// A local notification the app posts to the user. Each says what happened and what to do.
public enum UserNotice: String, CaseIterable, Hashable, Sendable, Codable {
    case loginExpired = "login-expired"
    case backgroundTimeRunningOut = "background-time-running-out"
    case locationServicesOff = "location-services-off"
    case locationDenied = "location-denied"
    case locationWhenInUseOnly = "location-when-in-use-only"
    case uploadsHeld = "uploads-held"
    case approximateLocation = "approximate-location"
    case locationPermissionExpired = "location-permission-expired"
    case storageFull = "storage-full"

    /// The text shown to the user.
    public var message: String {
        switch self {
        case .loginExpired:
            return "You were signed out, so tracking has stopped. Open the app and sign in again to resume."
        case .backgroundTimeRunningOut:
            return "iOS is about to pause the app in the background. Open it again to keep tracking."
        case .locationServicesOff:
            return "Location Services are off. Turn them on in Settings › Privacy & Security › Location Services."
        case .locationDenied:
            return
                "Location access is denied. Allow it in Settings › Privacy & Security › Location Services › this app."
        case .locationWhenInUseOnly:
            return
                "Tracking stops in the background with \"While Using the App\". Choose \"Always\" in Settings to keep it."
        case .approximateLocation:
            return
                "Precise Location is off, so positions are kilometres off. Turn on Precise Location in Settings › Privacy & Security › Location Services › this app."
        case .locationPermissionExpired:
            return
                "Location access was allowed only once and has ended, so tracking stopped. Open the app and allow location access again."
        case .storageFull:
            return
                "The phone's storage is full, so no positions are being recorded. Free some space; recording resumes by itself."
        case .uploadsHeld:
            return "The server refused this device's token; positions are kept on the phone. Sign in again to upload."
        }
    }
}

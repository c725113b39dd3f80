import Foundation

extension UploadOutcome {
    /// The outcome of an upload that ended with `error` and no HTTP answer: ``noNetwork(message:)``
    /// when the error says the phone had no network path at all, else ``networkError(message:)``
    /// (a network, but no answer from the server). The difference is the upload delay's reason.
    public init(transportError error: any Error, message: String) {
        self = Self.isOffline(error) ? .noNetwork(message: message) : .networkError(message: message)
    }

    /// Whether `error` means the phone had no network path (`URLError.notConnectedToInternet`,
    /// `.dataNotAllowed`, `.internationalRoamingOff`), as opposed to a server that did not answer
    /// (`cannotConnectToHost`, `timedOut`, DNS…).
    public static func isOffline(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        return [.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff].contains(error.code)
    }
}

package import Foundation

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// What a background upload session reports to the shell.
package enum UploadEvent: Sendable {
    /// The upload described by `description` ended: an HTTP answer, or `error` without one;
    /// `offline` when the error says the phone had no network at all (not a server that did not
    /// answer).
    case finished(description: String, status: Int?, body: Data, retryAfter: String?, error: String?, offline: Bool)
    /// iOS delivered every event it held for the session (call the completion handler now).
    case allEventsDelivered
}

/// Uploads request bodies from files through a session iOS runs outside the app, so an upload
/// survives the app being suspended or killed (the answer arrives at the next launch).
///
/// Live: `URLSessionBackgroundUploader`. Tests use a fake that ends uploads by hand.
@MainActor
package protocol BackgroundUploader: AnyObject {
    /// Creates (or recreates, at a relaunch) the session; iOS then delivers what it held.
    func activate(_ events: @escaping @MainActor (UploadEvent) -> Void)
    /// Starts an upload of `file`; `description` comes back with its `.finished` event.
    func upload(_ request: URLRequest, fromFile file: URL, description: String)
    /// The descriptions of the uploads the session still runs.
    func inFlight(_ completion: @escaping @MainActor (Set<String>) -> Void)
}

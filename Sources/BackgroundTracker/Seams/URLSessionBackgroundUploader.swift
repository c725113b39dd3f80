import Foundation
import LocationLog

#if !canImport(UIKit)
    import ShadowFoundation
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads through a background `URLSession` (`URLSessionConfiguration.background(withIdentifier:)`).
///
/// iOS runs the transfer in its own daemon: the app may be suspended or killed meanwhile, and the
/// answer is delivered to a session recreated with the same identifier at the next launch
/// (`handleEventsForBackgroundURLSession`). The session's delegate queue is the main queue, so
/// every callback arrives on the main thread.
final class URLSessionBackgroundUploader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `bodies` and `events` are touched only on the main queue (the delegate queue
    // and the @MainActor methods), and the lock guards them anyway.
    private let identifier: String
    private let lock = NSLock()
    private var bodies: [Int: Data] = [:]
    private var events: (@MainActor (UploadEvent) -> Void)?
    private var session: URLSession?

    init(identifier: String) {
        self.identifier = identifier
    }

    func activate(_ events: @escaping @MainActor (UploadEvent) -> Void) {
        lock.withLock { self.events = events }
        guard session == nil else { return }
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.sessionSendsLaunchEvents = true
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: .main)
    }

    func upload(_ request: URLRequest, fromFile file: URL, description: String) {
        guard let session else { return }
        let task = session.uploadTask(with: request, fromFile: file)
        task.taskDescription = description
        task.resume()
    }

    func inFlight(_ completion: @escaping @MainActor (Set<String>) -> Void) {
        guard let session else {
            MainActor.assumeIsolated { completion([]) }
            return
        }
        session.getAllTasks { tasks in
            let descriptions = Set(tasks.compactMap(\.taskDescription))
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(descriptions) } }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { bodies[dataTask.taskIdentifier, default: Data()].append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let body = lock.withLock { bodies.removeValue(forKey: task.taskIdentifier) } ?? Data()
        let http = task.response as? HTTPURLResponse
        let event = UploadEvent.finished(
            description: task.taskDescription ?? "", status: http?.statusCode, body: body,
            retryAfter: http?.value(forHTTPHeaderField: "Retry-After"),
            error: error.map { "\($0.localizedDescription)" }, offline: error.map(UploadOutcome.isOffline) ?? false)
        deliver(event)
    }

    #if canImport(UIKit)
        func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
            deliver(.allEventsDelivered)
        }
    #endif

    private func deliver(_ event: UploadEvent) {
        let handler = lock.withLock { events }
        MainActor.assumeIsolated { handler?(event) }
    }
}

// In an extension, so the main-actor protocol does not make the whole class (and with it the
// URLSession delegate methods) main-actor isolated.
extension URLSessionBackgroundUploader: BackgroundUploader {}

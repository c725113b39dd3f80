/// Sends one batch to the server and says how it went. Never throws: every failure is an outcome
/// the sync machine has a rule for.
///
/// Live: `URLSessionBatchTransport`. Fakes (scripted, in-memory server, fail-on-use) live in
/// `LocationLogTesting`.
public protocol BatchTransport: Sendable {
    func send(_ request: BatchRequest) async -> UploadOutcome
}

import Foundation

/// Values sent to every `AsyncStream` handed out, for as long as each is iterated: the one
/// mechanism behind `statusUpdates`, `storedSamples` and `uploadResults`.
@MainActor
final class Broadcast<Element: Sendable> {
    private var continuations: [UUID: AsyncStream<Element>.Continuation] = [:]
    private let buffering: AsyncStream<Element>.Continuation.BufferingPolicy

    /// `buffering` bounds what a slow reader can hold back; nothing is buffered for nobody.
    init(buffering: AsyncStream<Element>.Continuation.BufferingPolicy) {
        self.buffering = buffering
    }

    /// A new stream, first given `initial` (if any), then every value sent after.
    func stream(initial: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering)
        let id = UUID()
        continuations[id] = continuation
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    func send(_ value: Element) {
        for continuation in continuations.values { continuation.yield(value) }
    }

    /// Whether anyone listens (so a value that costs something to build can be skipped).
    var hasListeners: Bool { !continuations.isEmpty }
}

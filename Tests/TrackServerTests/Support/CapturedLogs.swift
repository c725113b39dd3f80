import Foundation
import Logging

/// Every log line a logger wrote, kept in memory so a test can inspect messages and metadata.
/// Lock-guarded, hence `@unchecked Sendable`.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// A logger at `level` whose every entry lands here.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "captured") { _ in Handler(sink: self) }
        logger.logLevel = level
        return logger
    }

    /// Each entry as `message key=value …`, metadata included.
    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    fileprivate func append(_ line: String) { lock.withLock { lines.append(line) } }

    private struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            sink.append("\(event.level) \(event.message) \(fields)")
        }
    }
}

import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal so
/// logs and pipes stay clean.
final class ProgressBar: Sendable {
    let label: String
    let enabled = isatty(STDERR_FILENO) == 1

    init(label: String) {
        self.label = label
    }

    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
    }

    /// The bar with `note` after the counts ("KiB, 1200 points, 98000/s").
    func update(_ done: Int, of total: Int, note: String) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total) \(note)\u{1B}[K".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

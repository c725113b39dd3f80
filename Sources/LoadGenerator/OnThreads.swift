import Foundation

/// Runs `body(0)`, `body(1)`, … `body(count - 1)` each on a thread of its own (1 MiB stack) and
/// returns their results in index order once all have ended: the load generators' connections,
/// each blocking on its own socket so the server, not the generator, is what gets measured.
package func onThreads<Part: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Part) async -> [Part] {
    let collector = Collector<Part>()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                collector.add(index, body(index))
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.notify(queue: .global()) { done.resume() }
    }
    return collector.parts
}

/// Gathers the threads' results. Lock-guarded, hence `@unchecked Sendable`.
private final class Collector<Part: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var byIndex: [Int: Part] = [:]

    func add(_ index: Int, _ part: Part) {
        lock.withLock { byIndex[index] = part }
    }

    var parts: [Part] { lock.withLock { byIndex.keys.sorted().compactMap { byIndex[$0] } } }
}

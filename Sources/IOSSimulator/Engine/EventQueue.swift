package import BackgroundCore

/// A min-heap of timed events; ties keep insertion order, so runs are deterministic.
package struct EventQueue<Element: Sendable>: Sendable {
    private struct Entry {
        var time: Instant
        var order: UInt64
        var element: Element

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    private var heap: [Entry] = []
    private var inserted: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { heap.isEmpty }
    package var count: Int { heap.count }

    package mutating func push(_ element: Element, at time: Instant) {
        heap.append(Entry(time: time, order: inserted, element: element))
        inserted += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    package mutating func pop() -> (time: Instant, element: Element)? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.time, first.element)
    }
}

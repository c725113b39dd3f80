import BackgroundCore
import LocationLog
import TrackGeometry

/// The newest samples of one device that its timeline builder has not taken yet, in time order:
/// the reorder buffer of ``TimelineUpdater``. Samples arriving in order are appended; a straggler
/// is put in its place; the builder takes the oldest once they are far enough behind the newest.
struct HeldSamples: Sendable {
    struct Entry: Sendable {
        var point: SampleValues
        var source: IngestSource
    }

    /// `entries[head...]` are held, in time order; the ones before `head` were taken.
    private var entries: [Entry] = []
    private var head = 0

    /// The held samples, oldest first.
    var held: ArraySlice<Entry> { entries[head...] }

    /// Holds `samples` too, each in its place by time.
    mutating func add(_ samples: [TrackSample]) {
        for sample in samples {
            let entry = Entry(point: sample.values, source: sample.source)
            if let last = entries.last, entries.count > head,
                entry.point.time.milliseconds < last.point.time.milliseconds
            {
                entries.insert(entry, at: firstIndex { $0 > entry.point.time.milliseconds })
            } else {
                entries.append(entry)
            }
        }
    }

    /// Removes and returns, oldest first, the held samples older than `window` behind the newest,
    /// and the oldest beyond `limit`.
    mutating func takeRipe(window: Duration, limit: Int) -> [Entry] {
        guard let newest = entries.last?.point.time.milliseconds, entries.count > head else { return [] }
        let cut = max(firstIndex { $0 > newest - window.wholeMilliseconds }, entries.count - limit)
        let ripe = Array(entries[head..<cut])
        head = cut
        if head >= 1_024 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return ripe
    }

    /// The first held index whose time passes `test` (times ascend, so it is a boundary).
    private func firstIndex(where test: (Int64) -> Bool) -> Int {
        var low = head
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if test(entries[middle].point.time.milliseconds) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

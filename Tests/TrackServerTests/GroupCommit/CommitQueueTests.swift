import Testing

@testable import TrackServer

/// The group commit's state machine, without I/O: who leads, what a group is, when it refuses.
@Suite("CommitQueue: leads, groups and the queue's bound")
struct CommitQueueTests {
    func queue(_ configure: (inout GroupCommitLimits) -> Void = { _ in }) -> CommitQueue<String> {
        var limits = GroupCommitLimits()
        configure(&limits)
        return CommitQueue(limits: limits)
    }

    @Test func theFirstRequestLeadsAndLaterOnesWait() {
        var queue = queue()
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "a") == .lead(id: 1))
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "b") == .wait(id: 2))
        #expect(queue.takeGroup().map(\.waiter) == ["a", "b"])
        #expect(queue.finishGroup() == nil)
        #expect(!queue.isLeading)
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "c") == .lead(id: 3))
    }

    @Test func theLeadPassesToTheFrontOfTheQueue() {
        var queue = queue()
        _ = queue.admit(samples: 1, bytes: 10, waiter: "a")
        #expect(queue.takeGroup().map(\.waiter) == ["a"])
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "b") == .wait(id: 2))
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "c") == .wait(id: 3))
        #expect(queue.finishGroup()?.waiter == "b")
        #expect(queue.isLeading)
        // A request arriving before the new leader runs still waits: one leader at a time.
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "d") == .wait(id: 4))
        #expect(queue.takeGroup().map(\.waiter) == ["b", "c", "d"])
        #expect(queue.finishGroup() == nil)
    }

    @Test func aGroupStopsAtTheSampleAndByteBoundsButTakesAtLeastOne() {
        var queue = queue {
            $0.maxSamplesPerCommit = 10
            $0.maxBytesPerCommit = 1_000
        }
        _ = queue.admit(samples: 50, bytes: 10, waiter: "big")
        _ = queue.admit(samples: 4, bytes: 10, waiter: "b")
        _ = queue.admit(samples: 4, bytes: 10, waiter: "c")
        _ = queue.admit(samples: 4, bytes: 10, waiter: "d")
        _ = queue.admit(samples: 1, bytes: 991, waiter: "e")
        _ = queue.admit(samples: 1, bytes: 20, waiter: "f")
        #expect(queue.takeGroup().map(\.waiter) == ["big"])
        #expect(queue.finishGroup()?.waiter == "b")
        #expect(queue.takeGroup().map(\.waiter) == ["b", "c"])
        #expect(queue.finishGroup()?.waiter == "d")
        #expect(queue.takeGroup().map(\.waiter) == ["d"])
        #expect(queue.finishGroup()?.waiter == "e")
        #expect(queue.takeGroup().map(\.waiter) == ["e"])
        #expect(queue.finishGroup()?.waiter == "f")
        #expect(queue.takeGroup().map(\.waiter) == ["f"])
        #expect(queue.finishGroup() == nil)
    }

    @Test func aFullQueueRefusesByRequestsAndBySamples() {
        var queue = queue {
            $0.maxPendingRequests = 2
            $0.maxPendingSamples = 100
        }
        #expect(queue.admit(samples: 500, bytes: 10, waiter: "a") == .lead(id: 1))  // an empty queue takes any size
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "b") == .refuse)  // 501 samples would wait
        #expect(queue.takeGroup().map(\.waiter) == ["a"])
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "c") == .wait(id: 2))
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "d") == .wait(id: 3))
        #expect(queue.admit(samples: 1, bytes: 10, waiter: "e") == .refuse)  // two requests wait
        #expect(queue.finishGroup()?.waiter == "c")
        #expect(queue.takeGroup().map(\.waiter) == ["c", "d"])
        #expect(queue.admit(samples: 99, bytes: 10, waiter: "f") == .wait(id: 4))
        #expect(queue.admit(samples: 2, bytes: 10, waiter: "g") == .refuse)  // 101 samples would wait
        #expect(queue.count == 1)
    }
}

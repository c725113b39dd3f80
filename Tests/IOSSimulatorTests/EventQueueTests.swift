import BackgroundCore
import Testing

@testable import IOSSimulator

@Suite struct EventQueueTests {
    @Test func popsInTimeOrderAndKeepsInsertionOrderForTies() {
        var queue = EventQueue<String>()
        var random = SeededRandom(seed: 3)
        var expected: [(Int64, Int)] = []
        for index in 0..<500 {
            let time = Int64(random.next() % 50)
            queue.push("\(index)", at: Instant(milliseconds: time))
            expected.append((time, index))
        }
        expected.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var popped: [String] = []
        while let (_, element) = queue.pop() { popped.append(element) }
        #expect(popped == expected.map { "\($0.1)" })
    }
}

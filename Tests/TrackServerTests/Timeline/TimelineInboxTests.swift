import BackgroundCore
import Testing

@testable import TrackServer

/// The timeline's inbox: one drain at a time, and drains coalesced under load (issue 23 item 5).
/// The instants are made up (the server's clock, injected): the inbox only compares them.
@Suite("Timeline inbox: one drain at a time, coalesced under load")
struct TimelineInboxTests {
    static let start = Instant(milliseconds: 1_800_000_000_000)

    static func sample(_ second: Int64) -> TrackSample {
        TrackSample(
            key: "s\(second)",
            values: SampleValues(
                time: Instant(milliseconds: second * 1000), latitude: 52.37, longitude: 4.89, accuracy: 10),
            source: .native)
    }

    static func at(_ milliseconds: Int) -> Instant { start + .milliseconds(milliseconds) }

    @Test func anIdleServersFirstSampleIsDrainedAtOnceAndLaterOnesJoinTheRunningDrain() {
        let inbox = TimelineInbox(window: .milliseconds(10))
        #expect(inbox.add([Self.sample(1)], device: "a", at: Self.at(0)) == .now)
        #expect(inbox.add([Self.sample(2)], device: "a", at: Self.at(1)) == .running)
        #expect(inbox.add([Self.sample(3)], device: "b", at: Self.at(1)) == .running)
        #expect(inbox.count == 3)
        let first = inbox.next(at: Self.at(2))
        #expect(first?.device == "a")
        #expect(first?.samples.map(\.key) == ["s1", "s2"])
        #expect(inbox.next(at: Self.at(2))?.device == "b")
        #expect(inbox.next(at: Self.at(3)) == nil)
        #expect(inbox.count == 0)
    }

    @Test func aDrainStartingWithinTheWindowOfTheLastOnesEndWaitsForTheRestOfIt() {
        let inbox = TimelineInbox(window: .milliseconds(10))
        #expect(inbox.add([Self.sample(1)], device: "a", at: Self.at(0)) == .now)
        #expect(inbox.next(at: Self.at(1))?.samples.count == 1)
        #expect(inbox.next(at: Self.at(2)) == nil)  // the drain ends at 2 ms
        // A commit 1 ms later: its drain waits until 12 ms, and takes what came meanwhile.
        #expect(inbox.add([Self.sample(2)], device: "a", at: Self.at(3)) == .after(.milliseconds(9)))
        #expect(inbox.add([Self.sample(3)], device: "a", at: Self.at(5)) == .running)
        #expect(inbox.next(at: Self.at(12))?.samples.map(\.key) == ["s2", "s3"])
        #expect(inbox.next(at: Self.at(13)) == nil)
        // Past the window: at once again.
        #expect(inbox.add([Self.sample(4)], device: "a", at: Self.at(23)) == .now)
    }

    @Test func aClockSetBackWaitsTheWindowAtMost() {
        let inbox = TimelineInbox(window: .milliseconds(10))
        #expect(inbox.add([Self.sample(1)], device: "a", at: Self.at(1000)) == .now)
        #expect(inbox.next(at: Self.at(1000)) != nil)
        #expect(inbox.next(at: Self.at(1000)) == nil)
        #expect(inbox.add([Self.sample(2)], device: "a", at: Self.at(0)) == .after(.milliseconds(10)))
    }

    @Test func aZeroWindowNeverDelays() {
        let inbox = TimelineInbox(window: .zero)
        #expect(inbox.add([Self.sample(1)], device: "a", at: Self.at(0)) == .now)
        _ = inbox.next(at: Self.at(0))
        #expect(inbox.next(at: Self.at(0)) == nil)
        #expect(inbox.add([Self.sample(2)], device: "a", at: Self.at(0)) == .now)
    }
}

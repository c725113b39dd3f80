import BackgroundCore
import IOSSimulator
import Testing

@Suite struct VirtualClockTests {
    @Test func advancesForward() {
        var clock = VirtualClock()
        clock.advance(to: .epoch + .seconds(30))
        #expect(clock.now == Instant(milliseconds: 30_000))
    }
}

import BackgroundCore
import Testing

@testable import IOSSimulator

/// The notification centre's one pending dead-man notice: replaced, cancelled, delivered once.
@Suite struct NotificationCentreTests {
    let start = Instant(milliseconds: 1_700_000_000_000)

    @Test func aNewerNoticeReplacesThePendingOneSoTheOldEventDeliversNothing() throws {
        var centre = NotificationCentre()
        let first = centre.schedule(due: start + .seconds(600), lastSample: start)
        let second = centre.schedule(due: start + .seconds(720), lastSample: start + .seconds(120))
        #expect(first != second)
        #expect(centre.takeDue(version: first) == nil)
        let deliveredValue = centre.takeDue(version: second)
        let delivered = try #require(deliveredValue)
        #expect(delivered.due == start + .seconds(720))
        #expect(delivered.lastSample == start + .seconds(120))
    }

    @Test func aNoticeIsDeliveredOnceButARelaunchStillLearnsWhenItWasDue() {
        var centre = NotificationCentre()
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        #expect(centre.takeDue(version: version) != nil)
        #expect(centre.takeDue(version: version) == nil)
        #expect(centre.pending == nil)
        #expect(centre.lastDue == start + .seconds(600))
    }

    @Test func cancellingRemovesTheNoticeAndWhatARelaunchWouldLearn() {
        var centre = NotificationCentre()
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        centre.cancel()
        #expect(centre.takeDue(version: version) == nil)
        #expect(centre.lastDue == nil)
        #expect(centre.pending == nil)
    }
}

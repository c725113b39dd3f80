import BackgroundCore
import Testing

@testable import IOSSimulator

/// The notification centre's one pending dead-man notice: replaced, cancelled, delivered once.
@Suite struct NotificationCentreTests {
    let start = Instant(milliseconds: 1_700_000_000_000)

    @Test func aNewerNoticeReplacesThePendingOneSoTheOldEventDeliversNothing() throws {
        var centre = asked(.allow)
        let first = centre.schedule(due: start + .seconds(600), lastSample: start)
        let second = centre.schedule(due: start + .seconds(720), lastSample: start + .seconds(120))
        #expect(first != second)
        let stale = centre.takeDue(version: first)
        #expect(stale == nil)
        let deliveredValue = centre.takeDue(version: second)
        let delivered = try #require(deliveredValue)
        #expect(delivered.due == start + .seconds(720))
        #expect(delivered.lastSample == start + .seconds(120))
    }

    @Test func aNoticeIsDeliveredOnceButARelaunchStillLearnsWhenItWasDue() throws {
        var centre = asked(.allow)
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        let once = centre.takeDue(version: version)
        let twice = centre.takeDue(version: version)
        #expect(once != nil)
        #expect(twice == nil)
        #expect(centre.pending == nil)
        #expect(centre.lastDue == start + .seconds(600))
    }

    @Test func cancellingRemovesTheNoticeAndWhatARelaunchWouldLearn() throws {
        var centre = asked(.allow)
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        centre.cancel()
        let delivered = centre.takeDue(version: version)
        #expect(delivered == nil)
        #expect(centre.lastDue == nil)
        #expect(centre.pending == nil)
    }

    // Issue 40, observation 5: notification authorization (docs/ios-policy.md §Notifications).

    /// A centre whose user answered the prompt with `answer`.
    func asked(_ answer: NotificationAnswer, provisional: Bool = false) -> NotificationCentre {
        var centre = NotificationCentre()
        centre.answer = answer
        centre.requestAuthorization(provisional: provisional)
        return centre
    }

    @Test func beforeTheAppAsksNothingIsDelivered() {
        var centre = NotificationCentre()
        #expect(centre.authorization == .notDetermined)
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        let posted = centre.post("storage-full")
        #expect(centre.pending == nil, "the add failed: nothing is scheduled")
        #expect(!posted)
        let delivered = centre.takeDue(version: version)
        #expect(delivered == nil)
        #expect(centre.withheld == ["storage-full", DeadManNotice.kind])
    }

    @Test func aNoticeAddedWhileDeniedIsNotDelivered() {
        var centre = asked(.deny)
        #expect(centre.authorization == .denied)
        // Rescheduled at every sample, then tracking stops: one warning missed, not one per add.
        _ = centre.schedule(due: start + .seconds(600), lastSample: start)
        let version = centre.schedule(due: start + .seconds(720), lastSample: start + .seconds(120))
        let posted = centre.post("location-denied")
        #expect(centre.pending == nil)
        #expect(centre.lastDue == nil)
        #expect(!posted)
        let delivered = centre.takeDue(version: version)
        #expect(delivered == nil)
        #expect(centre.withheld == ["location-denied", DeadManNotice.kind])
    }

    @Test func provisionalIsGrantedWithoutAPromptAndDelivered() throws {
        // A provisional request never shows the prompt, so the user's "deny" is never asked for.
        var centre = asked(.deny, provisional: true)
        #expect(centre.authorization == .provisional)
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        let delivered = centre.takeDue(version: version)
        let posted = centre.post("storage-full")
        #expect(delivered != nil)
        #expect(posted)
        #expect(centre.withheld.isEmpty)
        // The user answers "provisional" to a full request: delivered quietly too.
        #expect(asked(.provisional).authorization == .provisional)
    }

    @Test func iOSPromptsOnlyOnce() {
        var centre = asked(.deny)
        centre.answer = .allow
        centre.requestAuthorization(provisional: false)
        #expect(centre.authorization == .denied, "a second request shows no prompt")
        centre.settingsChanged(allowed: true)
        #expect(centre.authorization == .authorized)
    }

    @Test func aPendingNoticeDueAfterNotificationsWereSwitchedOffIsNotShown() throws {
        var centre = asked(.allow)
        let version = centre.schedule(due: start + .seconds(600), lastSample: start)
        #expect(centre.pending != nil)
        centre.settingsChanged(allowed: false)
        let delivered = centre.takeDue(version: version)
        #expect(delivered == nil)
        #expect(centre.withheld == [DeadManNotice.kind])
    }
}

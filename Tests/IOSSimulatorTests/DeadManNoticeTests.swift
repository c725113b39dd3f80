import BackgroundCore
import IOSShellHost
import Testing

@testable import IOSSimulator

/// Issue 12, items 1-2: the dead-man notice, delivered by the simulated notification centre
/// whatever the app's state. Policy: a local notification scheduled with
/// `UNUserNotificationCenter.add(_:)` is delivered by the system at its trigger time; the app
/// need not be running (UserNotifications, "Scheduling a notification locally from your app").
@MainActor @Suite("Dead-man notice")
struct DeadManNoticeTests {
    static let lead = 600.0

    static func seconds(_ clock: String) -> Double {
        let parts = clock.split(separator: ":").compactMap { Double($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1
    }

    static func run(
        _ strategy: StrategyName, auth: LocationAuthorization = .always,
        _ happenings: [(Double, Scenario.Happening)] = [], notifications: NotificationAnswer = .allow
    ) -> SimulationReport {
        var scenario = Scenario.commute()
        scenario.happenings += happenings.map { (at: $0.0, $0.1) }
        var configuration = SimulationConfiguration(
            strategy: strategy, ios: 17, app: IOSShell(), authorization: auth, scenario: scenario, seed: 1)
        configuration.notifications = notifications
        var simulation = Simulation(configuration)
        return simulation.run()
    }

    /// A healthy day: strategies that keep tracking never fire it; strategies that lose the app
    /// fire it once per real outage, exactly one lead after their last sample (a true alarm).
    @Test(arguments: StrategyName.allCases)
    func onTheHealthyCommuteItFiresOnlyForRealOutages(strategy: StrategyName) {
        let report = Self.run(strategy)
        if report.coverage >= 0.99 {
            #expect(
                report.deadManNotices.isEmpty, "\(strategy.rawValue) tracked all day but fired \(report.deadManNotices)"
            )
        }
        for notice in report.deadManNotices {
            #expect(Self.seconds(notice.firedAt) - Self.seconds(notice.lastSample) == Self.lead)
            #expect(notice.appState != "foreground", "\(strategy.rawValue): fired while the user had the app open")
        }
        #expect(report.notificationsByKind[DeadManNotice.kind] ?? 0 == report.deadManNotices.count)
    }

    @Test func theTrackingStrategiesNeverFireOnTheHealthyDay() {
        for strategy in [StrategyName.continuousLocation, .activitySession, .adaptive] {
            let report = Self.run(strategy)
            #expect(report.coverage >= 0.99)
            #expect(report.deadManNotices.isEmpty, "\(strategy.rawValue): \(report.deadManNotices)")
        }
    }

    /// A When-In-Use app force-quit at 10:30 and never reopened: no code runs again, yet the
    /// notice arrives one lead after the last sample.
    @Test(arguments: [StrategyName.activitySession, .adaptive])
    func afterAForceQuitOfAWhenInUseAppItFiresWhileTerminated(strategy: StrategyName) throws {
        let report = Self.run(strategy, auth: .whenInUse, [(10.5 * 3600, .forceQuit)])
        let first = try #require(report.deadManNotices.first { Self.seconds($0.firedAt) > 10.5 * 3600 })
        #expect(first.appState == "terminated")
        #expect(Self.seconds(first.lastSample) <= 10.5 * 3600)
        #expect(Self.seconds(first.lastSample) > 10.5 * 3600 - 2 * 120, "the last sample is the one before the quit")
        #expect(Self.seconds(first.firedAt) - Self.seconds(first.lastSample) == Self.lead)
    }

    /// Location Services switched off at noon: the app may live on, but no sample comes, and the
    /// notice fires one lead after the last one.
    @Test(arguments: [StrategyName.continuousLocation, .activitySession, .adaptive])
    func afterLocationServicesAreSwitchedOffItFires(strategy: StrategyName) throws {
        let report = Self.run(strategy, [(12 * 3600, .locationServices(false))])
        let fired = report.deadManNotices.filter { Self.seconds($0.firedAt) > 12 * 3600 }
        #expect(fired.count == 1, "one notice for one outage, got \(fired)")
        let notice = try #require(fired.first)
        #expect(Self.seconds(notice.lastSample) <= 12 * 3600)
        #expect(Self.seconds(notice.firedAt) - Self.seconds(notice.lastSample) == Self.lead)
    }

    // Issue 40, observation 5: without notification permission the notice never reaches the user
    // (docs/ios-policy.md §Notifications).

    @Test func withNotificationsDeniedTheNoticeIsNeverShown() {
        let allowed = Self.run(.adaptive, [(12 * 3600, .locationServices(false))])
        #expect(!allowed.deadManNotices.isEmpty, "the same day with permission fires it")
        let report = Self.run(.adaptive, [(12 * 3600, .locationServices(false))], notifications: .deny)
        #expect(report.deadManNotices.isEmpty)
        #expect(report.notificationAuthorization == "denied")
        #expect((report.notificationsNotShown[DeadManNotice.kind] ?? 0) > 0)
        #expect(report.notificationsByKind.isEmpty, "nothing at all was shown: \(report.notificationsByKind)")
    }

    @Test func withProvisionalPermissionTheNoticeIsDeliveredQuietly() throws {
        let report = Self.run(.adaptive, [(12 * 3600, .locationServices(false))], notifications: .provisional)
        #expect(report.notificationAuthorization == "provisional")
        let notice = try #require(report.deadManNotices.first { Self.seconds($0.firedAt) > 12 * 3600 })
        #expect(Self.seconds(notice.firedAt) - Self.seconds(notice.lastSample) == Self.lead)
        #expect(report.notificationsNotShown.isEmpty)
    }

    @Test func notificationsSwitchedOffInSettingsSilenceTheNoticeAlreadyPending() {
        let report = Self.run(
            .adaptive, [(11.9 * 3600, .notifications(false)), (12 * 3600, .locationServices(false))])
        #expect(report.deadManNotices.filter { Self.seconds($0.firedAt) > 12 * 3600 }.isEmpty)
        #expect((report.notificationsNotShown[DeadManNotice.kind] ?? 0) > 0)
        #expect(report.notificationAuthorization == "denied")
    }
}

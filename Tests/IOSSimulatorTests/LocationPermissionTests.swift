import BackgroundCore
import IOSShellHost
import Testing

@testable import IOSSimulator

/// Authorisation is prompted, not given ([AD-locauth], requestAlwaysAuthorization(); docs/ios-policy.md §Contract).
@MainActor @Suite struct LocationPermissionTests {
    static func permission(
        _ answers: LocationAnswers, plist: InfoPlist = .minimal(for: .adaptive), ios: Int = 17
    ) -> LocationPermission {
        LocationPermission(answers: answers, plist: plist, ios: ios)
    }

    @Test("a fresh install is not determined; When-In-Use, then the Always upgrade, each once")
    func whenInUseThenUpgrade() throws {
        var permission = Self.permission(LocationAnswers(.always))
        #expect(permission.authorization == .notDetermined)
        let first = try permission.requestWhenInUse(inForeground: true).get()
        #expect(first?.authorization == .whenInUse)
        #expect(try permission.requestWhenInUse(inForeground: true).get() == nil)  // no second prompt
        let upgrade = try permission.requestAlways(inForeground: true).get()
        #expect(upgrade?.authorization == .always)
        #expect(permission.authorization == .always)

        var keeps = Self.permission(LocationAnswers(.whenInUse))
        _ = keeps.requestWhenInUse(inForeground: true)
        #expect(try keeps.requestAlways(inForeground: true).get()?.authorization == .whenInUse)
        // "may be called once": a second request shows nothing.
        guard case .failure(.alwaysAskedBefore) = keeps.requestAlways(inForeground: true) else {
            Issue.record("a second requestAlwaysAuthorization prompted again")
            return
        }
    }

    @Test("requestAlwaysAuthorization from not determined grants provisional Always, decided at background use")
    func provisionalAlways() throws {
        var confirms = Self.permission(LocationAnswers(.always))
        let granted = try confirms.requestAlways(inForeground: true).get()
        #expect(granted?.authorization == .always)
        #expect(granted?.reason.contains("provisional") == true)
        #expect(confirms.usedInBackground()?.authorization == .always)
        #expect(confirms.usedInBackground() == nil)  // decided once

        var declines = Self.permission(LocationAnswers(.whenInUse))
        _ = declines.requestAlways(inForeground: true)
        #expect(declines.authorization == .always)
        #expect(declines.usedInBackground()?.authorization == .whenInUse)
        #expect(declines.authorization == .whenInUse)
    }

    @Test("requests fail at once without the usage-description keys, and prompt only in the foreground")
    func keysAndForeground() {
        let bare = InfoPlist(
            backgroundModes: [], permittedTaskIdentifiers: [], hasWhenInUseUsage: false, hasAlwaysUsage: false,
            origin: "bare")
        var permission = Self.permission(LocationAnswers(.always), plist: bare)
        guard
            case .failure(.missingKey("NSLocationWhenInUseUsageDescription")) = permission.requestWhenInUse(
                inForeground: true)
        else {
            Issue.record("a request without NSLocationWhenInUseUsageDescription prompted")
            return
        }
        var noAlways = Self.permission(LocationAnswers(.always), plist: .minimal(for: .continuousLocation))
        _ = noAlways.requestWhenInUse(inForeground: true)
        guard case .failure(.missingKey) = noAlways.requestAlways(inForeground: true) else {
            Issue.record("the upgrade prompted without NSLocationAlwaysAndWhenInUseUsageDescription")
            return
        }
        #expect(noAlways.authorization == .whenInUse)
        var background = Self.permission(LocationAnswers(.always))
        guard case .failure(.notInForeground) = background.requestWhenInUse(inForeground: false) else {
            Issue.record("a background request prompted")
            return
        }
    }

    @Test("Allow Once lapses when the app leaves use; Don't Allow denies; Precise off is kept")
    func onceDeniedPrecise() throws {
        var once = Self.permission(LocationAnswers(.whenInUse, allowOnce: true, precise: false))
        let change = try once.requestWhenInUse(inForeground: true).get()
        #expect(change?.authorization == .whenInUse)
        #expect(change?.precise == false)
        #expect(once.isOnce)
        #expect(once.leftUse()?.authorization == .notDetermined)
        var denied = Self.permission(LocationAnswers(.denied))
        #expect(try denied.requestWhenInUse(inForeground: true).get()?.authorization == .denied)
    }

    @Test("the shell asks at its first foreground launch; the report says what it reached and when")
    func theShellReachesItsAuthorization() {
        func reached(_ strategy: StrategyName, _ auth: LocationAuthorization) -> SimulationReport {
            SimulationConfiguration(
                strategy: strategy, ios: 17, app: IOSShell(), authorization: auth, hours: 1, memoryKillFactor: 0
            )
            .run()
        }
        let adaptive = reached(.adaptive, .always)
        #expect(adaptive.authorization == "always")
        #expect(adaptive.authorizationChanges.count == 2)
        #expect(adaptive.authorizationChanges.first?.hasPrefix("00:00:00 when-in-use") == true)
        #expect(adaptive.authorizationChanges.last?.hasPrefix("00:00:00 always") == true)
        // A strategy that never asks for Always stays When-In-Use whatever the user would answer.
        #expect(reached(.continuousLocation, .always).authorization == "when-in-use")
        #expect(reached(.adaptive, .whenInUse).authorization == "when-in-use")
        let denied = reached(.adaptive, .denied)
        #expect(denied.authorization == "denied")
        #expect(denied.samplesCaptured == 0)
    }
}

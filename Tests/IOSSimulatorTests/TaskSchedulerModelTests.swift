import BackgroundCore
import IOSSimulator
import Testing

/// `BGTaskScheduler`'s rules ([BGH], DTS forums thread 728585; docs/ios-policy.md §Modes, §Scheduler, §Contract).
@Suite struct TaskSchedulerModelTests {
    static let refresh = BackgroundTaskIdentifiers.refresh

    @Test("register: only while launching and once per process (else a crash), only permitted identifiers")
    func registration() {
        var model = TaskSchedulerModel(plist: .minimal(for: .adaptive))
        #expect(model.register(Self.refresh) == .registered)
        #expect(model.register(Self.refresh) == .crash(.registeredTwice(Self.refresh)))
        model.launchFinished()
        #expect(
            model.register(BackgroundTaskIdentifiers.processing)
                == .crash(.registeredAfterLaunch(BackgroundTaskIdentifiers.processing)))
        // A new process registers afresh.
        model.processStarted()
        #expect(model.register(Self.refresh) == .registered)
    }

    @Test("register of an identifier the plist does not permit returns false (no crash); submitting it throws")
    func unlistedIdentifierIsRefused() {
        // BGTaskScheduler.h: register "returns NO if the identifier isn't included in the
        // BGTaskSchedulerPermittedIdentifiers Info.plist"; submit fails with notPermitted.
        var model = TaskSchedulerModel(plist: .minimal(for: .adaptive))
        #expect(model.register("com.example.other") == .refused)
        #expect(!model.isRegistered("com.example.other"))
        #expect(model.submit("com.example.other", kind: .refresh, backgroundRefreshAvailable: true) == .notPermitted)
        // Refused, not registered: asking again is refused again, not a second registration's crash.
        #expect(model.register("com.example.other") == .refused)
        // After launch the assertion comes first (docs/ios-policy.md §Contract).
        model.launchFinished()
        #expect(model.register("com.example.other") == .crash(.registeredAfterLaunch("com.example.other")))
    }

    @Test("submit: notPermitted, unavailable and tooManyPendingTaskRequests as iOS throws them")
    func submission() {
        var plist = InfoPlist.minimal(for: .adaptive)
        plist.permittedTaskIdentifiers.insert("com.example.second-refresh")
        var model = TaskSchedulerModel(plist: plist)
        // Not registered yet.
        #expect(model.submit(Self.refresh, kind: .refresh, backgroundRefreshAvailable: true) == .notPermitted)
        _ = model.register(Self.refresh)
        _ = model.register("com.example.second-refresh")
        #expect(model.submit(Self.refresh, kind: .refresh, backgroundRefreshAvailable: false) == .unavailable)
        #expect(model.submit(Self.refresh, kind: .refresh, backgroundRefreshAvailable: true) == nil)
        #expect(model.submit(Self.refresh, kind: .refresh, backgroundRefreshAvailable: true) == nil)  // replaces
        #expect(
            model.submit("com.example.second-refresh", kind: .refresh, backgroundRefreshAvailable: true)
                == .tooManyPendingTaskRequests)
        model.launched(Self.refresh)
        #expect(model.submit("com.example.second-refresh", kind: .refresh, backgroundRefreshAvailable: true) == nil)
        #expect(TaskSubmitError.notPermitted.rawValue == 3)
        #expect(TaskSubmitError.tooManyPendingTaskRequests.rawValue == 2)
        #expect(TaskSubmitError.unavailable.rawValue == 1)

        var noFetch = TaskSchedulerModel(plist: InfoPlist.minimal(for: .adaptive).without("fetch"))
        _ = noFetch.register(Self.refresh)
        #expect(noFetch.submit(Self.refresh, kind: .refresh, backgroundRefreshAvailable: true) == .notPermitted)
    }
}

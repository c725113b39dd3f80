import BackgroundCore
import IOSSimulator
import Testing

/// `BGTaskScheduler`'s rules ([BGH], DTS forums thread 728585; docs/ios-policy.md §Modes, §Scheduler, §Contract).
@Suite struct TaskSchedulerModelTests {
    static let refresh = BackgroundTaskIdentifiers.refresh

    @Test("register: only while launching, only permitted identifiers, once per process")
    func registration() {
        var model = TaskSchedulerModel(plist: .minimal(for: .adaptive))
        #expect(model.register(Self.refresh) == nil)
        #expect(model.register(Self.refresh) == .registeredTwice(Self.refresh))
        #expect(model.register("com.example.other") == .registeredUnpermitted("com.example.other"))
        model.launchFinished()
        #expect(
            model.register(BackgroundTaskIdentifiers.processing)
                == .registeredAfterLaunch(BackgroundTaskIdentifiers.processing))
        // A new process registers afresh.
        model.processStarted()
        #expect(model.register(Self.refresh) == nil)
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

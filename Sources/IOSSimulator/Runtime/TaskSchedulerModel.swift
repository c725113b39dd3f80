/// What `BGTaskScheduler` enforces for one app (docs/ios-policy.md §Modes, §Scheduler, §Contract):
/// registration only while launching, once per identifier per process (else an assertion), and
/// only for permitted identifiers (else `register` returns `false`); submission only
/// for registered, permitted identifiers whose mode (`fetch`, `processing`) the plist declares,
/// with Background App Refresh on, within the pending limits (1 refresh, 10 processing).
///
/// The app's backend (the iOS shell's, `SimulatedSystem`) asks it for every call the app makes.
package struct TaskSchedulerModel: Sendable {
    package enum Kind: String, Sendable { case refresh, processing }

    /// What `register(forTaskWithIdentifier:using:launchHandler:)` does.
    package enum Registration: Hashable, Sendable {
        /// The handler is registered: `register` returns `true`.
        case registered
        /// `register` returns `false`: the identifier "isn't included in the
        /// BGTaskSchedulerPermittedIdentifiers Info.plist" (BGTaskScheduler.h).
        case refused
        /// iOS raises an exception: the app dies.
        case crash(RuntimeCrash)
    }

    private enum Launch: Sendable { case launching, finished }

    private let plist: InfoPlist
    private var launch = Launch.launching
    private var registered: Set<String> = []
    /// Pending requests by identifier (a new submission replaces the old one); the system keeps
    /// them across the app's death.
    private var pending: [String: Kind] = [:]

    package init(plist: InfoPlist) {
        self.plist = plist
    }

    /// A new process starts launching; its registrations died with the old one.
    package mutating func processStarted() {
        launch = .launching
        registered.removeAll()
    }

    /// `application(_:didFinishLaunchingWithOptions:)` returned.
    package mutating func launchFinished() { launch = .finished }

    /// `register(forTaskWithIdentifier:using:launchHandler:)`: registered, refused (`false`), or
    /// the crash iOS raises.
    package mutating func register(_ identifier: String) -> Registration {
        if case .finished = launch { return .crash(.registeredAfterLaunch(identifier)) }
        guard plist.permittedTaskIdentifiers.contains(identifier) else { return .refused }
        guard registered.insert(identifier).inserted else { return .crash(.registeredTwice(identifier)) }
        return .registered
    }

    /// Whether this process registered a handler for `identifier`.
    package func isRegistered(_ identifier: String) -> Bool { registered.contains(identifier) }

    /// `submit(_:)`: the error iOS throws, or `nil` when the request is now pending.
    package mutating func submit(
        _ identifier: String, kind: Kind, backgroundRefreshAvailable: Bool
    ) -> TaskSubmitError? {
        let mode = kind == .refresh ? "fetch" : "processing"
        guard plist.permittedTaskIdentifiers.contains(identifier), plist.declares(mode), registered.contains(identifier)
        else { return .notPermitted }
        guard backgroundRefreshAvailable else { return .unavailable }
        let limit = kind == .refresh ? 1 : 10
        let others = pending.filter { $0.key != identifier && $0.value == kind }.count
        guard others < limit else { return .tooManyPendingTaskRequests }
        pending[identifier] = kind
        return nil
    }

    /// The system launched the task: its request is no longer pending.
    package mutating func launched(_ identifier: String) { pending[identifier] = nil }
}

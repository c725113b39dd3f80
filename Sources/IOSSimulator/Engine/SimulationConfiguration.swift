package import BackgroundCore
package import LocationLog

/// What to simulate: one strategy on one iOS profile through one scenario.
package struct SimulationConfiguration: Sendable {
    /// Faults injected into the app to show what the simulated iOS does with buggy code.
    package enum Fault: String, Hashable, Sendable, CaseIterable {
        /// Drop every `endBackgroundTask` the app asks for (seed 003's misspelt selector).
        case neverEndTasks = "never-end-tasks"
    }

    package var strategy: StrategyName
    package var ios: Int
    /// The app code the simulated process runs, through Apple's API as an app does: the iOS shell
    /// (`IOSShell`, BackgroundTracker through AppleShadow) or a test's scripted app.
    package var app: any HostedAppFactory
    package var authorization: LocationAuthorization
    package var scenario: Scenario
    package var seed: UInt64
    package var samplingInterval: Duration
    package var uploadInterval: Duration
    package var allowsSilentAudio: Bool
    /// Scales the memory-kill rates of the policy table (0 turns memory kills off).
    package var memoryKillFactor: Double
    package var faults: Set<Fault>
    /// Regions the host app monitors for itself; they count against iOS's 20 per app, and the
    /// library's resume region fails when they use all of them.
    package var hostAppRegions = 0
    /// Multiplies policy parameters (`compare --sensitivity`: each assumption at ×0.5 and ×2).
    /// Applied only by ``profile``, so ``parameterReads`` sees every scaled value the run uses.
    package var parameterScales: [PolicyKey: Double] = [:]
    /// Notes every parameter the run reads from its profile (`compare --sensitivity`).
    package var parameterReads: ParameterReads? = nil
    /// Keep a human-readable timeline of state changes, kills, tasks and notices.
    package var recordsTimeline: Bool
    /// Where uploads and heartbeats go; `nil` is the in-memory server model.
    package var peer: (any SimulatedNetworkPeer)? = nil
    /// The phone's store; `nil` is a fresh in-memory store. `bgtrack demo` passes a file, so the
    /// phone's samples and `seq` carry over from one simulated day to the next.
    package var store: LocationStore? = nil
    /// The app's Info.plist; `nil` is the minimal one `lint-plist` accepts for the strategy.
    package var plist: InfoPlist? = nil
    /// The user picks Allow Once at the first location prompt (with `authorization` when-in-use).
    package var allowOnce = false
    /// The user leaves Precise Location on at the first location prompt (iOS 14+).
    package var precise = true
    /// Whether the app may read the motion coprocessor: the user allows Motion & Fitness
    /// (the default), denies it (Settings › Privacy › Motion & Fitness), or the phone has none.
    package var motion: MotionAccess = .authorized
    /// How the user answers the app's notification prompt (`--notifications`).
    package var notifications: NotificationAnswer = .allow

    /// `CMMotionActivityManager.authorizationStatus()` and `isActivityAvailable()` together.
    package enum MotionAccess: String, Hashable, Sendable, CaseIterable {
        case authorized, denied, unavailable
    }

    package init(
        strategy: StrategyName, ios: Int, app: any HostedAppFactory, authorization: LocationAuthorization = .always,
        scenario: Scenario = .commute(), hours: Double = 24, seed: UInt64 = 1,
        samplingInterval: Duration = .seconds(120), uploadInterval: Duration = .seconds(1800),
        allowsSilentAudio: Bool = false, memoryKillFactor: Double = 1, faults: Set<Fault> = [],
        recordsTimeline: Bool = false
    ) {
        self.strategy = strategy
        self.ios = ios
        self.app = app
        self.authorization = authorization
        self.scenario = scenario.lasting(hours: hours)
        self.seed = seed
        self.samplingInterval = samplingInterval
        self.uploadInterval = uploadInterval
        self.allowsSilentAudio = allowsSilentAudio
        self.memoryKillFactor = memoryKillFactor
        self.faults = faults
        self.recordsTimeline = recordsTimeline
    }

    package var hours: Double { scenario.duration.seconds / 3600 }

    /// The run's iOS profile, scaled by `parameterScales` and noting its reads in `parameterReads`:
    /// the engine, the system's rules and the report all read the policy through it.
    package var profile: IOSProfile? { IOSProfile(major: ios, scales: parameterScales, reads: parameterReads) }

    /// The Info.plist the simulated app has.
    package var effectivePlist: InfoPlist { plist ?? .minimal(for: strategy) }

    /// How the simulated user answers the location prompts: `authorization` is the user's answers.
    package var answers: LocationAnswers { LocationAnswers(authorization, allowOnce: allowOnce, precise: precise) }
}

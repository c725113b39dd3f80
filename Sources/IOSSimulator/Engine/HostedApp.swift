public import BackgroundCore

/// What the simulated iOS answers at once when hosted app code asks: handed to the app with every
/// event, so the shadow of UIKit and Core Location can reply synchronously as the real ones do.
public struct HostedSystemState: Sendable {
    public var now: Instant
    /// `UIApplication.applicationState` is `.active` (else `.background`).
    public var isForeground: Bool
    /// `UIApplication.backgroundTimeRemaining`; `nil` in the foreground or while a background
    /// mode keeps the app running (UIKit then reports `.greatestFiniteMagnitude`).
    public var backgroundTimeRemaining: Duration?
    /// `beginBackgroundTask` returns `.invalid` now: the stint's time is all but spent.
    public var refusesNewTasks: Bool
    /// Authorisation, Precise Location, Location Services, Low Power Mode, battery and charger.
    public var environment: KeepAliveEnvironment
    /// Regions the host app monitors for itself (they count against iOS's 20 per app).
    public var hostAppRegions: Int

    public init(
        now: Instant, isForeground: Bool, backgroundTimeRemaining: Duration?, refusesNewTasks: Bool,
        environment: KeepAliveEnvironment, hostAppRegions: Int
    ) {
        self.now = now
        self.isForeground = isForeground
        self.backgroundTimeRemaining = backgroundTimeRemaining
        self.refusesNewTasks = refusesNewTasks
        self.environment = environment
        self.hostAppRegions = hostAppRegions
    }
}

/// App code a simulated process runs in place of the keep-alive machine: `bgtrack simulate
/// --shell ios` hosts the iOS shell, which receives each event as the callback iOS would make
/// (launch, delegate call, expiration handler, timer) and whose calls to UIKit, Core Location,
/// BackgroundTasks and UserNotifications come back as the effects the simulator carries out.
///
/// The simulator calls it only while the app may run code, and on one thread.
public protocol HostedApp: AnyObject, Sendable {
    /// Runs the app's code for `event` and returns what it asked of the system, in order.
    func handle(_ event: KeepAliveEvent, system: HostedSystemState) -> [KeepAliveEffect]
    /// The tasks the app's ledger holds open, named by the identifiers the system handed out.
    var ledgerOpenTasks: [BackgroundTaskToken] { get }
    /// The process was killed: its memory is gone; what it wrote to disk stays.
    func processTerminated()
    /// The simulated day is over.
    func simulationEnded()
}

/// Makes the hosted app of one simulation.
public protocol HostedAppFactory: Sendable {
    /// What the report calls this shell ("ios").
    var name: String { get }
    func makeApp(for configuration: SimulationConfiguration) -> any HostedApp
}

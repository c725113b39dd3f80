public import ArgumentParser
public import BackgroundCore
public import IOSSimulator
public import LinuxDevice
import LocationLog

extension StrategyName: ExpressibleByArgument {}
extension UploadProtocol: ExpressibleByArgument {}
extension Durability: ExpressibleByArgument {}
extension SimulationConfiguration.Fault: ExpressibleByArgument {}
extension NotificationAnswer: ExpressibleByArgument {}

/// How the simulated user answers the app's location prompts (a fresh install starts not
/// determined): always = Allow While Using, then Change to Always at the upgrade prompt;
/// when-in-use = Allow While Using, kept at the upgrade; allow-once = Allow Once (it lapses when
/// the app leaves use); denied = Don't Allow.
enum AuthorizationOption: String, CaseIterable, ExpressibleByArgument {
    case always
    case whenInUse = "when-in-use"
    case allowOnce = "allow-once"
    case denied

    var authorization: LocationAuthorization {
        switch self {
        case .always: return .always
        case .whenInUse, .allowOnce: return .whenInUse
        case .denied: return .denied
        }
    }
}

/// Options shared by `simulate` and `compare`.
struct ScenarioOptions: ParsableArguments {
    @Option(help: "Simulated hours (0.1…720).")
    var hours: Double = 24

    @Option(help: "Random seed; the same seed gives the same day.")
    var seed: UInt64 = 1

    @Option(help: "The user's day: \(Scenario.names.joined(separator: ", ")).")
    var scenario: String = "commute"

    @Option(
        name: .customLong("at"),
        help: "Add an event to the day, as HH:MM=EVENT (repeatable), e.g. 07:48=force-quit or 12:00=revoke-session.")
    var events: [String] = []

    @Option(help: "Scale the memory-kill rates of the policy table (0 turns memory kills off, 0…100).")
    var memoryKills: Double = 1

    @Option(
        name: .customLong("fault"),
        help: "Inject an app bug (repeatable): never-end-tasks drops every endBackgroundTask (seed 003's typo).")
    var faults: [SimulationConfiguration.Fault] = []

    /// Removed with direct mode (issue 39): the shell uploads through its background URLSession
    /// only. Kept, hidden, to say so to whoever still passes `in-process`.
    @Option(help: .hidden)
    var uploadSession: String?

    @Option(help: "Regions the host app monitors itself (0…20); iOS allows 20 per app, the library's included.")
    var appRegions = 0

    @Option(help: "Silent pushes the server sends per hour (0…3600); default: the scenario's own (commute: 2).")
    var pushRate: Double?

    /// Removed with direct mode (issue 39): every run is the iOS shell. Kept, hidden, to say so to
    /// whoever still passes `direct` or `auto`.
    @Option(help: .hidden)
    var shell: String?

    @Option(
        help: """
            The app's Info.plist (XML or binary, or an XcodeGen project.yml's application target): its background modes, BGTaskScheduler identifiers and \
            location usage strings decide what iOS lets the app do. Default: the minimal one \
            `lint-plist` accepts for the strategy.
            """)
    var plist: String?

    @Flag(help: "The user turns Precise Location off at the first location prompt (iOS 14+).")
    var preciseOff = false

    @Option(
        help: """
            How the user answers the app's notification prompt: allow, deny (no notice is shown, the             dead-man notice included) or provisional (notices arrive quietly, without banner or sound).
            """)
    var notifications: NotificationAnswer = .allow

    /// The `--plist` file, read and checked (`nil` without the option).
    func loadPlist() throws(InfoPlistError) -> InfoPlist? {
        guard let plist else { return nil }
        return InfoPlist(try InfoPlistFile.read(path: plist), origin: plist)
    }

    /// Applies the options that are not the scenario itself to one run.
    func configure(_ configuration: inout SimulationConfiguration) {
        configuration.plist = try? loadPlist()
        configuration.precise = !preciseOff
        configuration.notifications = notifications
        configuration.memoryKillFactor = memoryKills
        configuration.faults = Set(faults)
        configuration.hostAppRegions = appRegions
    }

    mutating func validate() throws {
        if let shell, shell != "ios" {
            throw ValidationError(
                "--shell '\(shell.prefix(40))': direct mode was removed (issue 39); every run is the iOS shell "
                    + "(BackgroundTracker through Apple's API), on every iOS profile: drop --shell.")
        }
        if let uploadSession, uploadSession != "background" {
            throw ValidationError(
                "--upload-session '\(uploadSession.prefix(40))': the in-process path went with direct mode "
                    + "(issue 39); the iOS shell uploads through its background URLSession only: drop --upload-session."
            )
        }
        guard hours.isFinite, (0.1...720).contains(hours) else {
            throw ValidationError("--hours \(hours) is outside 0.1…720; simulate at most 30 days.")
        }
        guard Scenario.names.contains(scenario) else {
            throw ValidationError(
                "--scenario '\(scenario.prefix(80))' is unknown; use one of: \(Scenario.names.joined(separator: ", "))."
            )
        }
        guard memoryKills.isFinite, (0...100).contains(memoryKills) else {
            throw ValidationError("--memory-kills \(memoryKills) is outside 0…100 (1 = the policy table's rates).")
        }
        guard (0...20).contains(appRegions) else {
            throw ValidationError(
                "--app-regions \(appRegions) is outside 0…20 (iOS monitors at most 20 regions per app).")
        }
        if let pushRate, !(pushRate.isFinite && (0...3600).contains(pushRate)) {
            throw ValidationError("--push-rate \(pushRate) is outside 0…3600 silent pushes per hour.")
        }
        do {
            _ = try parsedEvents()
        } catch {
            throw ValidationError(error.description)
        }
        do {
            _ = try loadPlist()
        } catch {
            throw ValidationError(
                "--plist \(String((plist ?? "").prefix(200))): \(error.message)"
                    + " (or leave --plist out to give the app the minimal Info.plist for its strategy)")
        }
    }

    func parsedEvents() throws(ScenarioEventError) -> [ScenarioEvent] {
        try events.map { (text: String) throws(ScenarioEventError) in try ScenarioEvent(parsing: text) }
    }

    /// The named scenario with the `--at` events added.
    var resolvedScenario: Scenario {
        var resolved = (Scenario.named(scenario) ?? .commute()).adding((try? parsedEvents()) ?? [])
        if let pushRate { resolved.silentPushesPerHour = pushRate }
        return resolved
    }
}

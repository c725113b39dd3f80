import ArgumentParser
import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LinuxDevice
import LocationLog
import Logging
import Testing
import TrackServer

@testable import bgtrack

/// Every flag of `simulate` and `compare` with malformed, hostile and huge values: the message
/// names the flag, the bad value and what is allowed.
@Suite struct CommandLineTests {
    func message(_ arguments: [String]) -> String? { refusal(arguments) }

    @Test func parsesAValidSimulation() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--ios", "17", "--auth", "when-in-use", "--hours", "2", "--seed",
                "9", "--format", "json",
            ]) as? SimulateCommand)
        #expect(command.strategy == .adaptive)
        #expect(command.scenario.hours == 2)
    }

    @Test func anUnknownStrategyListsTheStrategies() throws {
        let text = try #require(message(["simulate", "--strategy", "keep-alive-forever"]))
        #expect(text.contains("keep-alive-forever"))
        #expect(text.contains("--strategy"))
        #expect(text.contains("adaptive") && text.contains("finite-task"))
    }

    @Test(arguments: ["15", "0", "-6", "99999999999999999999999", "seventeen", ""])
    func aBadIOSVersionNamesTheProfiles(value: String) throws {
        let text = try #require(message(["simulate", "--strategy", "adaptive", "--ios", value]))
        #expect(text.contains("--ios"))
    }

    @Test func anUnsupportedIOSVersionSaysWhichOnesExist() throws {
        let text = try #require(message(["simulate", "--strategy", "adaptive", "--ios", "15"]))
        #expect(text.contains("6, 12, 16, 17, 18"))
    }

    @Test(arguments: ["0", "-1", "nan", "inf", "1e309", "721", "lots"])
    func badHoursAreRefused(value: String) throws {
        let text = try #require(message(["compare", "--hours", value]))
        #expect(text.contains("--hours") || text.contains("hours"))
    }

    @Test func badAuthorisationFormatAndScenarioAreNamed() throws {
        let auth = try #require(message(["simulate", "--strategy", "adaptive", "--auth", "sometimes"]))
        #expect(auth.contains("sometimes") && auth.contains("when-in-use"))
        let format = try #require(message(["compare", "--format", "xml"]))
        #expect(format.contains("xml") && format.contains("svg"))
        let scenario = try #require(message(["compare", "--scenario", String(repeating: "x", count: 10_000)]))
        #expect(scenario.contains("commute"))
        let seed = try #require(message(["compare", "--seed", "-3"]))
        #expect(seed.contains("--seed"))
    }

    @Test func anUnwritableOutputFileIsReported() async throws {
        let command = try #require(
            try BGTrack.parseAsRoot(["compare", "--hours", "0.1", "--output", "/nonexistent-dir/x.svg"])
                as? CompareCommand)
        await #expect(throws: ValidationError.self) { try await command.run() }
    }

    @Test(arguments: [
        "7:99=call", "07:30=nuke", "=", "", "07:30", "=force-quit", "-1:00=call", "720:00=call", "07:30=force-quit=x",
        "０７:３０=call", String(repeating: "9", count: 5_000) + ":00=call", "07:30=\u{0}",
    ])
    func malformedEventsAreRefusedWithTheFormat(value: String) throws {
        let text = try #require(message(["simulate", "--strategy", "adaptive", "--at", value]))
        #expect(text.contains("--at"))
        #expect(text.count < 2_000, "the message quotes a bounded prefix of hostile input")
    }

    @Test func eventsAreAddedToTheDay() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--at", "25:30=force-quit", "--at", "07:00=deny",
            ])
                as? SimulateCommand)
        let added = command.scenario.resolvedScenario.happenings.filter {
            $0.1 == .forceQuit || $0.1 == .authorization(.denied)
        }
        #expect(added.map(\.at) == [7 * 3600, 25.5 * 3600] as [Double])
    }

    @Test func rebootFirstUnlockAndNetworkEventsShapeTheDay() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--at", "03:10=reboot", "--at", "07:30=unlock", "--at",
                "11:30=network-off", "--at", "15:00=network-on", "--at", "22:00=network-off",
            ]) as? SimulateCommand)
        let scenario = command.scenario.resolvedScenario
        #expect(scenario.happenings.contains { $0.at == 3 * 3600 + 600 && $0.1 == .reboot })
        #expect(scenario.happenings.contains { $0.at == 7.5 * 3600 && $0.1 == .firstUnlock })
        let commute = Scenario.commute()
        #expect(
            scenario.networkOutages == commute.networkOutages + [(11.5 * 3600)...(15 * 3600), (22 * 3600)...86_400])
        // A network event on a later day cannot be a window of the day.
        let text = try #require(message(["simulate", "--strategy", "adaptive", "--at", "30:00=network-off"]))
        #expect(text.contains("network events are times of the day"))
    }

    @Test func theSensitivityWorkerRunsTheSameDayAndWritesNoFile() {
        #expect(
            CompareCommand.workerArguments([
                "compare", "--sensitivity", "--ios", "18", "--output", "x.json", "--at", "03:10=reboot", "--output=y",
            ]) == ["compare", "--sensitivity", "--ios", "18", "--at", "03:10=reboot", "--sensitivity-worker"])
    }

    @Test func theDemoTakesTheSameEvents() throws {
        let command = try #require(
            try BGTrack.parseAsRoot(["demo", "--at", "03:10=reboot", "--at", "11:30=network-off"]) as? DemoCommand)
        let day = command.demoDay(start: Scenario.defaultStart)
        #expect(day.happenings.contains { $0.at == 3 * 3600 + 600 && $0.1 == .reboot })
        #expect(day.networkOutages.contains((11.5 * 3600)...86_400))
        for bad in ["07:30=nuke", "25:61=reboot", "30:00=network-on"] {
            let text = try #require(message(["demo", "--at", bad]))
            #expect(text.contains("--at"), "\(text)")
        }
    }

    @Test func locationAccessEventsAreAddedToTheDay() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--at", "12:00=approximate", "--at", "13:00=precise", "--at",
                "07:30=allow-once",
            ]) as? SimulateCommand)
        let happenings = command.scenario.resolvedScenario.happenings
        #expect(happenings.contains { $0.at == 12 * 3600 && $0.1 == .preciseLocation(false) })
        #expect(happenings.contains { $0.at == 13 * 3600 && $0.1 == .preciseLocation(true) })
        #expect(happenings.contains { $0.at == 7.5 * 3600 && $0.1 == .allowOnce })
    }

    @Test(arguments: [
        (["--sensitivity", "--seeds", "1-3"], "--sensitivity"),
        (["--sensitivity", "--format", "svg"], "--sensitivity"),
        (["--sensitivity", "--ios", "99"], "--ios 99"), (["--sensitivity", "--ios", "nine"], "--ios"),
        (["--sensitivity", "--auth", "sometimes"], "--auth"),
    ])
    func badSensitivityFlagsAreRefused(arguments: [String], flag: String) throws {
        let text = try #require(message(["compare"] + arguments))
        #expect(text.contains(flag), "\(text)")
    }

    @Test(arguments: ["-1", "nan", "101", "lots"]) func badMemoryKillFactorsAreRefused(value: String) throws {
        let text = try #require(message(["compare", "--memory-kills", value]))
        #expect(text.contains("--memory-kills"))
    }

    @Test(arguments: ["0", "-5", "99999999999999999", "1000001"])
    func deviceListRefusesOfflineThresholdsOutOfRange(value: String) throws {
        let text = try #require(message(["device", "list", "--offline-minutes", value]))
        #expect(text.contains("--offline-minutes"))
    }

    @Test(arguments: [
        (["--duration", "99999999999999999"], "--duration"), (["--interval", "5"], "--interval"),
        (["--server", "ftp://x"], "--server"), (["--token", "a b"], "--token"), (["--speedup", "-2"], "--speedup"),
        (["--server", String(repeating: "h", count: 100_000)], "--server"),
        (["--protocol", "gopher"], "--protocol"), (["--protocol", ""], "--protocol"),
    ])
    func deviceFlagsAreValidated(arguments: [String], flag: String) throws {
        var base = ["device", "--server", "http://127.0.0.1:1", "--token", "t", "--db", "/tmp/bgtrack-cli-test.sqlite"]
        if let index = base.firstIndex(of: arguments[0]) {
            base[index + 1] = arguments[1]
        } else {
            base += arguments
        }
        let text = try #require(message(base))
        #expect(text.contains(flag))
        #expect(!text.contains("a b") || flag != "--token", "the token is not echoed")
    }

    @Test(arguments: [
        (["serve", "--alert-webhook", "ftp://x/y"], "--alert-webhook"),
        (["serve", "--alert-webhook", "not a url"], "--alert-webhook"),
        (["serve", "--alert-webhook", "http://"], "--alert-webhook"),
        (["serve", "--alert-command", "   "], "--alert-command"),
        (["serve", "--durability", "off"], "--durability"), (["serve", "--durability", ""], "--durability"),
        (["serve", "--alert-command", String(repeating: "x", count: 5000)], "--alert-command"),
        (["device", "add", "."], "only dots"), (["device", "add", ".."], "only dots"),
        (["device", "add", "p", "--silent-after", "35"], "--silent-after"),
        (["device", "add", "p", "--silent-after", "10s"], "--silent-after"),
        (["device", "add", "p", "--silent-after", "-5m"], "--silent-after"),
        (["device", "add", "p", "--silent-after", "99999999999h"], "--silent-after"),
        (["device", "add", "p", "--silent-after", "31d"], "--silent-after"),
    ])
    func alertFlagsAreValidated(arguments: [String], flag: String) throws {
        let text = try #require(message(arguments))
        #expect(text.contains(flag), "\(text)")
    }

    @Test func goodAlertFlagsParse() throws {
        let add = try #require(try BGTrack.parseAsRoot(["device", "add", "p", "--silent-after", "35m"]) as? DeviceAdd)
        #expect(try add.silentAfterDuration() == .seconds(2100))
        let serve = try #require(
            try BGTrack.parseAsRoot([
                "serve", "--alert-webhook", "https://hooks.example/a", "--alert-webhook", "http://127.0.0.1:9/b",
                "--alert-command", "logger bgtrack",
            ]) as? ServeCommand)
        #expect(try serve.alertTargets().count == 3)
    }

    @Test(arguments: UploadProtocol.allCases)
    func deviceTakesEveryUploadProtocol(uploadProtocol: UploadProtocol) throws {
        let parsed = try BGTrack.parseAsRoot([
            "device", "run", "--server", "http://127.0.0.1:1", "--token", "t", "--db", "/tmp/x.sqlite", "--protocol",
            uploadProtocol.rawValue,
        ])
        #expect((parsed as? DeviceRun)?.uploadProtocol == uploadProtocol)
    }

    /// A zone name the tz database does not know is refused at every `--time-zone`, naming the
    /// bad name and how to list the good ones; a fixed offset is not a zone.
    @Test(arguments: [
        ["serve"], ["demo"],
        ["device", "run", "--server", "http://127.0.0.1:1", "--token", "t", "--db", "/tmp/x.sqlite"],
        ["device", "set", "phone"],
    ])
    func badTimeZonesAreRefused(command: [String]) throws {
        for value in ["Mars/Olympus_Mons", "+08:00", "UTC+8", "", String(repeating: "x", count: 9_999)] {
            let text = try #require(message(command + ["--time-zone", value]))
            #expect(text.contains("--time-zone"), "\(command) \(value)")
            #expect(text.contains("bgtrack time-zones"), "\(command) \(value)")
            #expect(text.count < 2_000)
        }
        let cased = try #require(message(command + ["--time-zone", "europe/berlin"]))
        #expect(cased.contains("\"europe/berlin\"") && cased.contains("did you mean Europe/Berlin?"))
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"])
    func timeZonesAreRead(name: String) throws {
        let command = try #require(try BGTrack.parseAsRoot(["serve", "--time-zone", name]) as? ServeCommand)
        #expect(try TimeZoneArgument.zone(command.timeZone).identifier == (name == "UTC" ? "Etc/UTC" : name))
    }

    @Test func theRetiredUTCOffsetSaysWhatToUseInstead() throws {
        let text = try #require(message(["serve", "--utc-offset", "+08:00"]))
        #expect(text.contains("--time-zone") && text.contains("daylight saving"))
    }

    @Test func aServerURLWithAPasswordIsRefusedWithoutEchoingIt() throws {
        let text = try #require(
            message(["device", "--server", "http://me:hunter2@127.0.0.1:8080", "--token", "t", "--db", "/tmp/x.sqlite"])
        )
        #expect(text.contains("--server"))
        #expect(!text.contains("hunter2"))
    }

    @Test(arguments: [
        ("--header-timeout", "0"), ("--request-timeout", "-1"), ("--idle-timeout", "86401"),
        ("--max-connections", "0"), ("--max-connections", "99999999999999999999999"), ("--header-timeout", "soon"),
    ])
    func badConnectionFlagsNameTheFlag(flag: String, value: String) throws {
        let text = try #require(message(["serve", flag, value]))
        #expect(text.contains(flag), "\(text)")
        #expect(text.count < 2_000)
    }

    @Test(arguments: ["0", "-3", "1025", "99999999999999999999999", "four", "", String(repeating: "9", count: 5000)])
    func badConcurrentReadsNameTheFlag(value: String) throws {
        let text = try #require(message(["serve", "--max-concurrent-reads", value]))
        #expect(text.contains("--max-concurrent-reads"), "\(text)")
        // ArgumentParser quotes a value it cannot read as a number; ours adds only a line.
        #expect(text.count < 2_000 + value.count)
    }

    @Test func concurrentReadsFlagParses() throws {
        let serve = try #require(try BGTrack.parseAsRoot(["serve", "--max-concurrent-reads", "2"]) as? ServeCommand)
        #expect(serve.maxConcurrentReads == 2)
        let defaults = try #require(try BGTrack.parseAsRoot(["serve"]) as? ServeCommand)
        #expect(defaults.maxConcurrentReads == ServerConfiguration().maxConcurrentReads)
    }

    @Test func connectionFlagsReachTheLimits() throws {
        let serve = try #require(
            try BGTrack.parseAsRoot([
                "serve", "--header-timeout", "5", "--request-timeout", "30", "--idle-timeout", "9", "--max-connections",
                "100",
            ]) as? ServeCommand)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let limits = serve.connections.limits(logger: quiet)
        #expect(limits.headerTimeout == .seconds(5) && limits.requestTimeout == .seconds(30))
        #expect(limits.idleTimeout == .seconds(9) && limits.maxConnections == 100)
    }

    @Test(arguments: [
        ["--fault", "never-end-task"], ["--fault", ""], ["--push-rate", "-1"], ["--push-rate", "nan"],
        ["--push-rate", "3601"], ["--push-rate", "ten"], ["--app-regions", "21"], ["--app-regions", "-1"],
        ["--app-regions", "many"],
    ])
    func badFaultAndPushRateFlagsAreRefused(arguments: [String]) throws {
        let text = try #require(message(["simulate", "--strategy", "adaptive"] + arguments))
        #expect(text.contains(arguments[0]), "\(text)")
    }

    @Test func faultAndPushRateReachTheSimulation() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--fault", "never-end-tasks", "--push-rate", "10",
            ]) as? SimulateCommand)
        #expect(command.scenario.faults == [.neverEndTasks])
        #expect(command.scenario.resolvedScenario.silentPushesPerHour == 10)
        let session = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--app-regions", "20",
            ]) as? SimulateCommand)
        #expect(session.scenario.appRegions == 20)
    }

    @Test(arguments: ["0-200", "5-1", "a-b", "1,,2", "", "1-", String(repeating: "1,", count: 200) + "1"])
    func badSeedListsAreRefused(value: String) throws {
        let text = try #require(message(["compare", "--seeds", value]))
        #expect(text.contains("--seeds"), "\(text)")
        #expect(text.count < 2_000)
    }

    @Test func seedListsAreRead() throws {
        let range = try #require(try BGTrack.parseAsRoot(["compare", "--seeds", "1-30"]) as? CompareCommand)
        #expect(try range.seedList() == Array(1...30))
        let list = try #require(try BGTrack.parseAsRoot(["compare", "--seeds", "3,1,9"]) as? CompareCommand)
        #expect(try list.seedList() == [3, 1, 9])
    }

    @Test func notificationAnswersAndEventsReachTheSimulation() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "simulate", "--strategy", "adaptive", "--notifications", "deny", "--at", "12:00=notifications-on",
                "--at", "13:00=notifications-off",
            ]) as? SimulateCommand)
        var configuration = SimulationConfiguration(strategy: .adaptive, ios: 17, app: IOSShell())
        command.scenario.configure(&configuration)
        #expect(configuration.notifications == .deny)
        let happenings = command.scenario.resolvedScenario.happenings
        #expect(happenings.contains { $0.at == 12 * 3600 && $0.1 == .notifications(true) })
        #expect(happenings.contains { $0.at == 13 * 3600 && $0.1 == .notifications(false) })
        let text = try #require(message(["simulate", "--strategy", "adaptive", "--notifications", "maybe"]))
        #expect(text.contains("maybe") && text.contains("provisional"), "\(text)")
    }

    @Test @MainActor func simulatePrintsWhatTheUserWasNotShown() {
        var simulation = Simulation(SimulationConfiguration(strategy: .adaptive, ios: 17, app: IOSShell(), hours: 0.2))
        var report = simulation.run()
        report.notificationAuthorization = "denied"
        report.notificationsNotShown = ["tracking-stopped": 3, "location-services-off": 1]
        report.appStatus = ["notification permission: denied", "notices off: the user denied notifications"]
        let text = NotificationText.summary(report)
        #expect(text.contains("notifications: denied"))
        #expect(text.contains("not shown to the user (notifications not allowed), 4 notice(s)"))
        #expect(text.contains("tracking-stopped ×3"))
        #expect(text.contains("  notices off: the user denied notifications"))
    }
}

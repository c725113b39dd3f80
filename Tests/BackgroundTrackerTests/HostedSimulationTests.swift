import BackgroundCore
import IOSShellHost
import IOSSimulator
import LocationLog
import Testing

extension ShellSuite {
    /// The simulated iPhone runs the iOS shell (issue 10 item 4): events reach the shell as iOS's
    /// callbacks, its calls to the shadowed frameworks come back as the effects the simulator
    /// carries out, and the simulator's checks (ledger against system, nothing run while
    /// suspended, nothing lost) judge the shell.
    @Suite("The simulator hosts the iOS shell")
    @MainActor
    struct HostedSimulationTests {
        func run(
            _ strategy: StrategyName, ios: Int, auth: LocationAuthorization = .always, hours: Double = 6,
            seed: UInt64 = 1, memoryKills: Double = 1, faults: Set<SimulationConfiguration.Fault> = [],
            shell: any HostedAppFactory = IOSShell()
        ) -> SimulationReport {
            let configuration = SimulationConfiguration(
                strategy: strategy, ios: ios, app: shell, authorization: auth, hours: hours, seed: seed,
                memoryKillFactor: memoryKills, faults: faults, recordsTimeline: true)
            var simulation = Simulation(configuration)
            return simulation.run()
        }

        @Test("every strategy runs through the shell with no violation and records samples", arguments: [17, 18])
        func everyStrategyRuns(ios: Int) {
            for strategy in StrategyName.allCases {
                let report = run(strategy, ios: ios)
                #expect(report.shell == "ios")
                #expect(report.invariantViolations == 0, "\(strategy) iOS \(ios): \(report.violationExamples)")
                #expect(report.samplesCaptured > 0, "\(strategy) iOS \(ios) captured nothing")
                #expect(report.samplesOnServer + report.samplesPending == report.samplesRecorded)
            }
        }

        /// The simulated server refuses a batch naming another device than the token's, as the real
        /// one does (docs/protocol.md): a shell that named a made-up device uploaded nothing (it
        /// minted one when the app named none; every real upload was refused with 403).
        @Test("a batch naming another device is refused; none named or the token's own is stored")
        func theTokensDeviceOnly() {
            let own = run(.adaptive, ios: 17, hours: 6)
            #expect(own.samplesOnServer > 0 && own.invariantViolations == 0)
            let unnamed = run(.adaptive, ios: 17, hours: 6, shell: IOSShell(device: nil))
            #expect(unnamed.samplesOnServer == own.samplesOnServer, "no name: the token's device")
            let other = run(.adaptive, ios: 17, hours: 6, shell: IOSShell(device: "0c9d8e7f-minted"))
            #expect(other.samplesOnServer == 0, "every batch refused")
            #expect(other.samplesPending == other.samplesRecorded && other.samplesRecorded > 0, "nothing lost")
        }

        @Test("a task's expiry reaches the shell's expiration handler, which ends the task in it")
        func expiryEndsTheTask() throws {
            let report = run(.finiteTask, ios: 17)
            let timeline = try #require(report.timeline)
            let handlers = timeline.filter { $0.contains("shell: expiration handler of task") }
            #expect(!handlers.isEmpty)
            for line in handlers {
                // "00:01:27 shell: expiration handler of task 1 "finish-work" runs"
                let words = line.split(separator: " ")
                let (time, task) = (words[0], words[6])
                #expect(timeline.contains("\(time) end task#\(task)"), "\(line)")
            }
            #expect(report.invariantViolations == 0, "\(report.violationExamples)")
        }

        @Test("refresh and processing launches find the handlers registered at launch; notices reach the centre")
        func tasksAndNotices() throws {
            let report = run(.adaptive, ios: 17, hours: 24)
            let timeline = try #require(report.timeline)
            #expect(!timeline.contains { $0.contains("registered no handler") })
            let completed = timeline.filter { $0.contains("BGTask") && $0.contains("completed (success: true)") }
            #expect(completed.contains { $0.contains(BackgroundTaskIdentifiers.refresh) })
            #expect(completed.contains { $0.contains(BackgroundTaskIdentifiers.processing) })
            #expect(report.processingRuns > 0)
            // Location Services switched off while the app runs: the keep-alive machine's notice,
            // posted by the shell through UNUserNotificationCenter, counted by the simulator.
            var configuration = SimulationConfiguration(strategy: .adaptive, ios: 17, app: IOSShell(), hours: 4)
            configuration.scenario.happenings.append((at: 2 * 3600, .locationServices(false)))
            var simulation = Simulation(configuration)
            let switchedOff = simulation.run()
            #expect(switchedOff.notificationsByKind[UserNotice.locationServicesOff.rawValue, default: 0] == 1)
        }

        @Test("Location Services off: a refresh wake's fix fails (CLError.denied) and its BGTask completes at once")
        func refreshWakeWithLocationOffEndsPromptly() {
            // docs/ios-policy.md §Contract: a fix that cannot be had reaches the delegate as an
            // error; the shell then completes the wake's task instead of holding it to expiry.
            func afterSwitchOff(rule: Bool) -> [String] {
                var configuration = SimulationConfiguration(
                    strategy: .adaptive, ios: 17, app: IOSShell(), hours: 8, memoryKillFactor: 0, recordsTimeline: true)
                configuration.scenario.silentPushesPerHour = 0
                configuration.scenario.happenings.append((at: 3600, .locationServices(false)))
                if !rule { configuration.parameterScales[.contractFailedFixReported] = 0 }
                var simulation = Simulation(configuration)
                return (simulation.run().timeline ?? []).filter { $0 > "01:00:01" }
            }
            let refresh = BackgroundTaskIdentifiers.refresh
            let timeline = afterSwitchOff(rule: true)
            let wakes = timeline.filter { $0.contains("(backgroundRefresh)") }
            #expect(!wakes.isEmpty)
            #expect(timeline.contains { $0.contains("didFailWithError(CLError.denied)") })
            #expect(!timeline.contains { $0.contains("BGTask \(refresh) expiring") }, "\(timeline)")
            // Each wake's task completes in the second it began.
            for wake in wakes {
                let time = wake.prefix(8)
                #expect(timeline.contains("\(time) BGTask \(refresh) completed (success: true)"), "\(wake)")
            }
            // Without the error the shell waits for a fix that never comes, to the task's expiry.
            #expect(afterSwitchOff(rule: false).contains { $0.contains("BGTask \(refresh) expiring") })
        }

        @Test("uploads go through the shell's background session; each answer deletes only what it acknowledged")
        func uploadsThroughTheSimulatedSession() {
            // A day with outages, memory kills and a revoked session: answers arrive late, after
            // relaunches, or as refusals; the simulator's end check counts every sample the shell
            // stored as on the server, pending or quarantined.
            var configuration = SimulationConfiguration(
                strategy: .adaptive, ios: 18, app: IOSShell(), hours: 24, memoryKillFactor: 10, recordsTimeline: true)
            configuration.scenario.happenings += [(at: 9 * 3600, .revokeSession), (at: 11 * 3600, .renewSession)]
            var simulation = Simulation(configuration)
            let report = simulation.run()
            #expect(report.backgroundTransfers > 10)
            #expect(report.uploads > 10)
            #expect(report.samplesOnServer > 0)
            #expect(report.samplesOnServer + report.samplesPending == report.samplesRecorded)
            // After the new login the held uploads resumed: little is left on the phone.
            #expect(report.samplesPending < report.samplesCaptured / 10, "\(report.samplesPending) pending")
            #expect(report.invariantViolations == 0, "\(report.violationExamples)")
        }

        @Test("a hosted run's gap intervals reach the simulated server and the answer lets go of them")
        func gapIntervalsReachTheServer() throws {
            // Low Power Mode for two hours, then a force-quit the user undoes an hour later: the
            // shell records both intervals in the phone's store and its uploads carry them.
            var configuration = SimulationConfiguration(strategy: .adaptive, ios: 17, app: IOSShell(), hours: 24)
            configuration.scenario.happenings += [
                (at: 10 * 3600, .lowPowerMode(true)), (at: 12 * 3600, .lowPowerMode(false)),
                (at: 14 * 3600, .openApp(seconds: 60)), (at: 14 * 3600 + 30, .forceQuit),
                (at: 15 * 3600, .openApp(seconds: 120)),
            ]
            configuration.scenario.happenings.sort { $0.at < $1.at }
            let store = try LocationStore.inMemory()
            configuration.store = store
            var simulation = Simulation(configuration)
            let report = simulation.run()
            #expect(report.invariantViolations == 0, "\(report.violationExamples)")
            let onServer = simulation.serverGaps
            #expect(onServer.contains { $0.reason == .lowPowerMode }, "\(onServer)")
            #expect(onServer.contains { $0.reason == .forceQuit && $0.detail == "the user reopened it" }, "\(onServer)")
            // Acknowledged: no interval the server stored is still pending on the phone.
            let pending = try store.pendingGaps(limit: 1000).map(\.interval)
            #expect(!onServer.isEmpty && Set(pending).isDisjoint(with: onServer), "still pending: \(pending)")
        }

        @Test("the ledger check judges the shell: dropped endBackgroundTask calls are caught")
        func ledgerCheckCatchesLeaks() {
            let report = run(.finiteTask, ios: 17, faults: [.neverEndTasks])
            #expect(report.invariantViolations > 0)
            #expect(report.violationExamples.contains { $0.contains("still open when the budget ran out") })
        }

        @Test("a background relaunch after a reboot recreates the service session on iOS 18, not on 17")
        func relaunchRecreatesSessions() throws {
            for ios in [17, 18] {
                var configuration = SimulationConfiguration(
                    strategy: .activitySession, ios: ios, app: IOSShell(), authorization: .whenInUse, hours: 12,
                    recordsTimeline: true)
                configuration.scenario.happenings.append((at: 10 * 3600, .reboot))
                // A silent push is what relaunches the app in the background after the reboot;
                // only an app with `remote-notification` is woken by one (docs/ios-policy.md §Contract).
                var plist = InfoPlist.minimal(for: .activitySession)
                plist.backgroundModes.insert("remote-notification")
                configuration.plist = plist
                var simulation = Simulation(configuration)
                let report = simulation.run()
                let timeline = try #require(report.timeline)
                let reboot = try #require(timeline.firstIndex { $0.contains("terminated: reboot") })
                let relaunch = try #require(
                    timeline[reboot...].firstIndex { $0.contains("launched (") && !$0.contains("(user)") })
                let time = timeline[relaunch].split(separator: " ")[0]
                let recreated = timeline.contains("\(time) shell: CLServiceSession(whenInUse) created")
                #expect(recreated == (ios >= 18), "iOS \(ios): \(timeline[relaunch...].prefix(4))")
                #expect(report.invariantViolations == 0, "\(report.violationExamples)")
            }
        }
    }
}

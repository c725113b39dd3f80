/// The one table of every number the simulated iPhone uses, with the iOS versions it applies to,
/// its status and its source key (docs/ios-policy.md §Parameters). Change a value here and only
/// here; `bgtrack simulate --format json` reports nothing the table does not back.
package enum PolicyTable {
    private static let all4 = 4...99

    package static let all: [PolicyParameter] = [
        .init(.enterBackgroundHandler, 5, "s", ios: all4, .documented, "[AD-ext]"),
        .init(.suspendDelay, 0, "s", ios: all4, .assumption, "[AD-ext] \"shortly after\""),
        .init(.taskBudget, 600, "s", ios: 4...6, .folklore, "[SO-180]"),
        .init(.taskBudget, 180, "s", ios: 7...12, .contested, "[SO-8bad] [W13]"),
        .init(.taskBudget, 30, "s", ios: 13...99, .staff, "[Q85066] [Q391799]"),
        .init(.expiryLead, 3, "s", ios: 4...12, .assumption, "same lead as 13+ assumed"),
        .init(.expiryLead, 3, "s", ios: 13...99, .folklore, "[R-brew]"),
        .init(.expiryHandlerRuntime, 1, "s", ios: all4, .staff, "[Q85066]"),
        .init(.maxTaskAssertions, 1000, "tasks", ios: all4, .staff, "[Q85066] (0xbada5e47, 11+)"),
        .init(
            .lowPowerTaskBudgetFactor, 1, "×", ios: all4, .assumption, "[AD-lpm] says reduced, by how much is unknown"),
        .init(.whenInUseGrace, 10, "s", ios: all4, .assumption, "[AD-locauth] \"a short time\""),
        .init(.activitySessionAvailable, 0, "bool", ios: 4...16, .documented, "[AD-CLBAS]"),
        .init(.activitySessionAvailable, 1, "bool", ios: 17...99, .documented, "[AD-CLBAS]"),
        .init(.deliveryInterval, 10, "s", ios: all4, .assumption, "modelling cadence of standard updates"),
        .init(.autoPauseAfter, 600, "s", ios: all4, .assumption, "[AD-CLM] pauses when stationary; delay unstated"),
        .init(.gpsTimeToFix, 5, "s", ios: all4, .assumption, "assisted warm start"),
        .init(.wifiTimeToFix, 2, "s", ios: all4, .assumption, "Wi-Fi scan"),
        .init(.cellTimeToFix, 1, "s", ios: all4, .assumption, "cell lookup"),
        .init(
            .requestLocationTimeout, 10, "s", ios: all4, .assumption,
            "[AD-CLM] requestLocation(): an error if no fix comes \"in a timely manner\"; how long is unstated, "
                + "10 s is an estimate (twice the GPS time to fix)"),
        .init(
            .approximateRefresh, 900, "s", ios: 14...99, .assumption,
            "[AD-reduced] kCLLocationAccuracyReduced: updated \"at most a few times per hour\""),
        .init(.approximateRefresh, 0, "s", ios: 4...13, .documented, "[AD-reduced] iOS 14+ (0 = always precise)"),
        .init(
            .approximateGrid, 5000, "m", ios: 14...99, .assumption,
            "[AD-reduced] \"usually within 1–20 kilometers\"; a nearby point per 5 km cell"),
        .init(.approximateGrid, 0, "m", ios: 4...13, .documented, "[AD-reduced] iOS 14+ (0 = always precise)"),
        .init(
            .undergroundWiFiRange, 150, "m", ios: all4, .assumption,
            "no GPS underground; station Wi-Fi within this range, cell positioning between"),
        .init(.significantChangeDistance, 500, "m", ios: all4, .documented, "[AD-CLM]"),
        .init(.significantChangeMinInterval, 300, "s", ios: all4, .documented, "[AD-CLM]"),
        .init(.significantChangeFixAccuracy, 300, "m", ios: all4, .assumption, "cell/Wi-Fi quality fixes"),
        .init(.visitMinimumDwell, 600, "s", ios: 8...99, .assumption, "[AD-CLM] visits, dwell unstated"),
        .init(.visitMinimumDwell, 0, "s", ios: 4...7, .documented, "[AD-CLM] visits are iOS 8+ (0 = none)"),
        .init(.regionExitMargin, 200, "m", ios: all4, .documented, "[LPG-RM]"),
        .init(.regionLatency, 240, "s", ios: all4, .documented, "[LPG-RM] 3–5 min"),
        .init(
            .regionLimit, 20, "regions", ios: all4, .documented, "[LPG-RM] 20 per app; excess → regionMonitoringFailure"
        ),
        .init(.locationWakeRuntime, 10, "s", ios: all4, .folklore, "[R-sji]"),
        .init(.silentPushRuntime, 30, "s", ios: 7...99, .documented, "[AD-drn]"),
        .init(.silentPushRuntime, 0, "s", ios: 4...6, .documented, "[AD-drn] content-available is iOS 7+"),
        .init(.silentPushPerHour, 3, "pushes", ios: all4, .documented, "[AD-push] [AD-strat]"),
        .init(.refreshRuntime, 30, "s", ios: 7...99, .documented, "[AD-fetch] [AD-strat]"),
        .init(.refreshRuntime, 0, "s", ios: 4...6, .documented, "[AD-fetch] fetch is iOS 7+"),
        .init(.refreshMinInterval, 900, "s", ios: all4, .folklore, "[R-tsf]"),
        .init(.refreshExtraDelay, 1800, "s", ios: all4, .assumption, "[W19] opportunistic; mean extra delay"),
        .init(.processingRuntime, 300, "s", ios: 13...99, .folklore, "[W19] \"several minutes\"; [R-brew] 60–180 s"),
        .init(.processingRuntime, 0, "s", ios: 4...12, .documented, "[BGH] BGProcessingTask is iOS 13+"),
        .init(.processingIdle, 300, "s", ios: all4, .folklore, "[F119758] locked and idle; [Q685525] overnight"),
        .init(
            .processingMinInterval, 43200, "s", ios: all4, .assumption,
            "[Q685525] \"typically delivered overnight\": once a night"),
        .init(.urlSessionBackground, 1, "bool", ios: 7...99, .documented, "[AD-bgcfg] background sessions are iOS 7+"),
        .init(.urlSessionBackground, 0, "bool", ios: 4...6, .documented, "[AD-bgcfg]"),
        .init(.urlSessionRelaunchRuntime, 30, "s", ios: all4, .assumption, "docs/ios-policy.md §URLSession"),
        .init(.urlSessionStartDelay, 60, "s", ios: all4, .assumption, "[AD-dl] shape: doubles per background resume"),
        .init(
            .urlSessionDiscretionaryDelay, 900, "s", ios: all4, .assumption,
            "[AD-dl] background tasks are discretionary"),
        .init(.criticalBattery, 0.2, "level", ios: all4, .documented, "[W20] (secondary)"),
        .init(.forceQuitLocationRelaunch, 0, "bool", ios: 4...7, .documented, "[APG-BG] 8+ only"),
        .init(.forceQuitLocationRelaunch, 1, "bool", ios: 8...18, .contested, "[APG-BG] [F826964]"),
        .init(.forceQuitLocationRelaunch, 0, "bool", ios: 19...99, .contested, "[F826964] iOS 26.4"),
        .init(.forceQuitBlocksBackgroundLaunch, 0, "bool", ios: 4...6, .staff, "[Q685525] since iOS 7"),
        .init(.forceQuitBlocksBackgroundLaunch, 1, "bool", ios: 7...99, .staff, "[Q685525] [AD-drn]"),
        .init(.rebootUnlockDelay, 60, "s", ios: all4, .assumption, "when the scenario names no unlock time [HD-14]"),
        .init(.memoryKillsPerHourSuspended, 0.25, "/h", ios: all4, .assumption, "[APG-BG] suspended purged first"),
        .init(.memoryKillsPerHourRunning, 0.005, "/h", ios: all4, .assumption, "[APG-BG] running apps warned first"),
        .init(.gpsPower, 280, "mW", ios: all4, .folklore, "[R-aro] [P-paek]"),
        .init(.wifiLocationPower, 40, "mW", ios: all4, .assumption, "Wi-Fi scans, no source"),
        .init(.cellLocationPower, 8, "mW", ios: all4, .assumption, "cell positioning, no source"),
        .init(.significantChangePower, 2, "mW", ios: all4, .assumption, "[EEG] runs around the clock"),
        .init(.visitsPower, 1, "mW", ios: all4, .assumption, "[EEG] cheaper than SLC"),
        .init(.cpuPower, 400, "mW", ios: all4, .assumption, "no published per-wake cost"),
        .init(.cpuTimePerEvent, 0.02, "s", ios: all4, .assumption, "handling one event"),
        .init(.audioPower, 30, "mW", ios: all4, .assumption, "audio route and DSP awake"),
        .init(.ltePromotionTime, 0.26, "s", ios: all4, .folklore, "[R-aro]"),
        .init(.ltePromotionPower, 1210, "mW", ios: all4, .folklore, "[R-aro]"),
        .init(.lteTailTime, 10.1, "s", ios: all4, .folklore, "[R-aro] [P-huang]"),
        .init(.lteTailPower, 1060, "mW", ios: all4, .folklore, "[R-aro] [P-huang]"),
        // The runtime contract (docs/ios-policy.md §Contract): 1 = the simulated iPhone enforces the rule.
        .init(
            .serviceSessionDeadline, 5, "s", ios: 18...99, .staff,
            "DTS forums thread 797319: recreate CLServiceSession within \"a few seconds\" of a relaunch"),
        .init(.serviceSessionDeadline, 0, "s", ios: 4...17, .documented, "CLServiceSession is iOS 18+ (0 = none)"),
        .init(
            .motionDetectionLatency, 60, "s", ios: 7...99, .assumption,
            "[AD-CMMAM] reports changes of motion, delay unstated; a minute assumed"),
        .init(
            .motionDetectionLatency, 0, "s", ios: 4...6, .documented,
            "[AD-CMMAM] CMMotionActivityManager is iOS 7+ (0 = no motion activity)"),
        .init(
            .contractBackgroundLocationMode, 1, "bool", ios: 9...99, .documented,
            "[AD-CLM] allowsBackgroundLocationUpdates without `location`: fatal "
                + "(docs/ios-policy.md §Modes, §Contract)"),
        .init(
            .contractBackgroundLocationMode, 0, "bool", ios: 4...8, .documented,
            "[AD-CLM] allowsBackgroundLocationUpdates is iOS 9+"),
        .init(
            .contractTaskRegistration, 1, "bool", ios: all4, .documented,
            "[BGH] register before launch ends and once, or an assertion; an identifier not in "
                + "BGTaskSchedulerPermittedIdentifiers: register returns false, submit throws notPermitted "
                + "(BGTaskScheduler.h); DTS forums thread 728585 (docs/ios-policy.md §Modes, §Scheduler, §Contract)"),
        .init(
            .contractModesGateWakes, 1, "bool", ios: all4, .documented,
            "[AD-modes] [AD-push] [BGH] [APG-BG]: remote-notification, fetch, processing, audio, location "
                + "(docs/ios-policy.md §Modes, §Contract)"),
        .init(
            .contractTaskCompletion, 1, "bool", ios: all4, .documented,
            "[AD-bgexp] setTaskCompleted ends the grant; not completing may kill the app "
                + "(docs/ios-policy.md §Scheduler, §Contract)"),
        .init(
            .contractPushCompletion, 1, "bool", ios: all4, .documented,
            "[AD-drn] the fetch completion handler ends a silent push's runtime; not called within 30 s, "
                + "the app is terminated (docs/ios-policy.md §Push, §Contract)"),
        .init(
            .contractPromptedAuthorization, 1, "bool", ios: all4, .documented,
            "[AD-locauth] requestAlwaysAuthorization(): prompts, provisional Always, keys "
                + "(docs/ios-policy.md §Modes, §Contract)"),
        .init(
            .contractActivitySessionForeground, 1, "bool", ios: all4, .documented,
            "[AD-CLBAS] create CLBackgroundActivitySession in the foreground "
                + "(docs/ios-policy.md §Location, §Contract)"),
        .init(
            .contractMainThread, 1, "bool", ios: all4, .documented,
            "Xcode Main Thread Checker; locationServicesEnabled() runtime warning (docs/ios-policy.md §Contract)"),
        .init(
            .contractFailedFixReported, 1, "bool", ios: all4, .documented,
            "[AD-CLM] requestLocation(), locationManager(_:didFailWithError:): a fix that cannot be had is an error, "
                + "denied (Location Services off, permission denied) or locationUnknown (docs/ios-policy.md §Contract)"),
        .init(
            .contractSessionDiagnostics, 1, "bool", ios: 18...99, .documented,
            "[AD-CLSSD] CLServiceSession / CLBackgroundActivitySession diagnostics say why location stopped "
                + "(docs/ios-policy.md §Causes)"),
        .init(
            .contractSessionDiagnostics, 0, "bool", ios: 4...17, .documented, "[AD-CLSSD] diagnostics are iOS 18+"),
        .init(
            .contractExitReports, 1, "bool", ios: 14...99, .documented,
            "[AD-MXBED] MXBackgroundExitData counts background exits by cause, in MetricKit's daily report "
                + "(docs/ios-policy.md §Causes)"),
        .init(.contractExitReports, 0, "bool", ios: 4...13, .documented, "[AD-MXBED] exit data is iOS 14+"),
        .init(
            .exitReportPeriod, 24, "h", ios: all4, .documented,
            "[AD-MXMM] reports \"at most once per day\"; a payload \"covers a 24 hour period\" (MXMetricPayload.h); "
                + "delivered when the app next runs after the period (docs/ios-policy.md §Causes)"),
    ]

    /// The parameter for `key` that applies to iOS `major`, or `nil` when the table has none.
    package static func parameter(_ key: PolicyKey, ios major: Int) -> PolicyParameter? {
        all.first { $0.key == key && $0.versions.contains(major) }
    }
}

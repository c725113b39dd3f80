import BackgroundCore
import Foundation

extension Simulation {
    var position: Coordinate { configuration.scenario.track.position(at: now) }

    /// Whether CoreLocation delivers to the app right now. When-In-Use apps are "in use" in the
    /// foreground, for a short grace after leaving it, and while a background activity session
    /// (iOS 17+) holds them.
    var locationDeliverable: Bool {
        guard environment.locationServicesEnabled, process != nil, !location.locationAbandoned else { return false }
        switch environment.authorization {
        case .always: return true
        case .denied, .notDetermined: return false
        case .whenInUse:
            if inUse { return true }
            // Updates started in use with background updates allowed keep the app "in use" in
            // the background, with the blue indicator, for as long as they run (docs/ios-policy.md §Location).
            return location.runsBackgroundUpdates && location.updatesStartedInUse
        }
    }

    /// "In use" for a When-In-Use app: on screen, for a short grace after leaving it (for starting
    /// services), or held by a background activity session (iOS 17+).
    var inUse: Bool {
        guard let process else { return false }
        if process.state == .foreground || location.activitySession { return true }
        guard let backgroundSince = timeline.backgroundSince else { return false }
        return now - backgroundSince < profile.duration(.whenInUseGrace)
    }

    mutating func startUpdates(_ request: LocationUpdatesRequest) {
        if location.startUpdates(request, inUse: environment.authorization == .always || inUse) {
            queue.push(.locationDelivery(generation: timeline.generation), at: now + .seconds(1))
        }
    }

    /// One tick of standard updates: a fix when moved past the distance filter.
    mutating func deliverStandardUpdate(generation: Int) {
        guard let request = location.deliveryTick(current: generation == timeline.generation) else { return }
        queue.push(.locationDelivery(generation: generation), at: now + profile.duration(.deliveryInterval))
        guard isRunning, locationDeliverable, !location.pausedAutomatically else { return }
        if request.pausesAutomatically, let since = stationarySince, now - since >= profile.duration(.autoPauseAfter) {
            // No automatic resume; for a When-In-Use app the pause "ends access to location
            // changes until the app is launched again" (docs/ios-policy.md §Location).
            location.pauseAutomatically(endsInUse: environment.authorization == .whenInUse)
            report.note(now, "location updates paused automatically")
            settle()
            return
        }
        guard location.passesDistanceFilter(position, filter: request.distanceFilter) else { return }
        deliver(.locationFix(fix(accuracy: request.accuracy), source: .standardUpdates))
        afterAppCode()
    }

    mutating func requestFix(_ accuracy: LocationAccuracy) {
        guard location.requestOneShot() else { return }
        let request = location.oneShotRequest
        if reportsFailedFixes, locationDenied {
            // Core Location knows at once that no fix will come.
            queue.push(.oneShotFailed(.denied, request: request), at: now)
            return
        }
        queue.push(.oneShotFix(accuracy, generation: timeline.generation), at: now + timeToFix(accuracy))
    }

    /// Whether a fix that cannot be had reaches the app as an error (docs/ios-policy.md §Contract).
    var reportsFailedFixes: Bool { profile.flag(.contractFailedFixReported) }

    /// Location Services off or the app's permission denied: iOS answers both with `CLError.denied`.
    var locationDenied: Bool { !environment.locationServicesEnabled || environment.authorization == .denied }

    mutating func completeOneShot(_ accuracy: LocationAccuracy, generation: Int) {
        guard generation == timeline.generation, location.oneShotPending else { return }
        guard isRunning, locationDeliverable else {
            if reportsFailedFixes, isRunning, locationDenied {
                failOneShot(.denied, request: location.oneShotRequest)
            } else if reportsFailedFixes, isRunning {
                // "If a location fix cannot be determined in a timely manner" ([AD-CLM] requestLocation()):
                // the error comes when the request's time is up. (A suspended app just loses the request.)
                let left = profile.duration(.requestLocationTimeout) - timeToFix(accuracy)
                queue.push(
                    .oneShotFailed(.locationUnknown, request: location.oneShotRequest), at: now + max(.zero, left))
            } else {
                _ = location.completeOneShot()
            }
            settle()
            return
        }
        _ = location.completeOneShot()
        let source = component(for: accuracy)
        let timeKey: PolicyKey =
            source == .gps ? .gpsTimeToFix : source == .wifiLocation ? .wifiTimeToFix : .cellTimeToFix
        energy.add(
            source, milliwatts: power(for: accuracy), seconds: timeToFix(accuracy).seconds,
            restingOn: [EnergyMeter.powerKey(source), timeKey])
        deliver(.locationFix(fix(accuracy: accuracy), source: .oneShot))
        afterAppCode()
    }

    /// The one-shot request `request` ends without a fix: the app's manager delegate hears
    /// `locationManager(_:didFailWithError:)` if the app runs (a suspended app is not woken for it).
    mutating func failOneShot(_ failure: LocationFailure, request: Int) {
        guard location.failOneShot(request: request) else { return }
        guard isRunning else {
            report.note(now, "requestLocation() failed (\(failure)) while the app was not running")
            return
        }
        report.note(now, "requestLocation() failed: didFailWithError(CLError.\(failure))")
        guard runHosted("a location error", { $0.locationFailed(failure, system: $1) }) else { return }
        afterAppCode()
    }

    func timeToFix(_ accuracy: LocationAccuracy) -> Duration {
        switch accuracy {
        case .best, .tenMeters: return profile.duration(.gpsTimeToFix)
        case .hundredMeters: return profile.duration(.wifiTimeToFix)
        case .kilometer, .threeKilometers: return profile.duration(.cellTimeToFix)
        }
    }

    /// What the receiver really does: with Precise Location off, "setting desiredAccuracy to a value
    /// other than kCLLocationAccuracyReduced has no effect" ([AD-CLM] accuracyAuthorization), so
    /// no GPS runs; the model charges cell positioning.
    func component(for accuracy: LocationAccuracy) -> EnergyMeter.Component {
        guard environment.preciseLocation || profile[.approximateGrid] == 0 else { return .cellLocation }
        switch accuracy {
        case .best, .tenMeters: return .gps
        case .hundredMeters: return .wifiLocation
        case .kilometer, .threeKilometers: return .cellLocation
        }
    }

    func power(for accuracy: LocationAccuracy) -> Double {
        switch component(for: accuracy) {
        case .gps: return profile[.gpsPower]
        case .wifiLocation: return profile[.wifiLocationPower]
        default: return profile[.cellLocationPower]
        }
    }

    /// A fix near the true position, with an error and accuracy typical of the provider that can
    /// serve it here: no GPS underground (Wi-Fi near a station, cell positioning between), and
    /// only an approximate position while Precise Location is off.
    mutating func fix(accuracy: LocationAccuracy) -> LocationFix {
        if let approximate = approximateFix() { return approximate }
        var provider = accuracy
        if let station = configuration.scenario.track.undergroundStationDistance(at: now) {
            provider = station <= profile[.undergroundWiFiRange] ? .hundredMeters : .kilometer
            if accuracy == .kilometer || accuracy == .threeKilometers { provider = accuracy }
        }
        let radius: Double
        switch provider {
        case .best, .tenMeters: radius = rng.uniform(4...15)
        case .hundredMeters: radius = rng.uniform(30...90)
        case .kilometer, .threeKilometers: radius = rng.uniform(500...1500)
        }
        return fix(accuracyRadius: radius, measuresSpeed: provider.usesGPS)
    }

    /// A fix `radius` metres good; only GPS measures speed (others report it invalid).
    mutating func fix(accuracyRadius radius: Double, measuresSpeed: Bool = false) -> LocationFix {
        if let approximate = approximateFix() { return approximate }
        let error = radius * rng.unit() * 0.7
        let bearing = rng.uniform(0...(2 * Double.pi))
        let place = position.offset(north: error * cos(bearing), east: error * sin(bearing))
        let speed = measuresSpeed ? configuration.scenario.track.speed(at: now) : nil
        return LocationFix(
            timestamp: now, latitude: place.latitude, longitude: place.longitude,
            horizontalAccuracy: (radius * 10).rounded() / 10, altitude: 4, speed: speed)
    }

    /// With Precise Location off (iOS 14+): "a nearby point of interest", "usually within 1–20
    /// kilometers", updated "at most a few times per hour" ([AD-reduced]). Modelled as the centre
    /// of the grid cell the user was in at the last refresh.
    mutating func approximateFix() -> LocationFix? {
        // Precise first: a run reads the grid only if it can use it (`compare --sensitivity`).
        guard !environment.preciseLocation else { return nil }
        let grid = profile[.approximateGrid]
        guard grid > 0 else { return nil }
        let place = location.approximatePlace(
            at: now, refresh: profile.duration(.approximateRefresh), degrees: grid / 111_320, here: position)
        return LocationFix(
            timestamp: now, latitude: place.latitude, longitude: place.longitude, horizontalAccuracy: grid,
            isApproximate: true)
    }

    // MARK: System location services that wake or relaunch the app

    /// Delivers a location event that can wake a suspended app or relaunch a terminated one.
    mutating func locationEvent(_ reason: LaunchReason, source: FixSource, accuracy radius: Double) {
        // iOS 18: an app that missed recreating its CLServiceSession gets no location events.
        guard environment.locationServicesEnabled, !location.locationAbandoned else { return }
        if environment.authorization != .always {
            // When-In-Use: only an app in use gets these, and they never relaunch it.
            guard isRunning, locationDeliverable else { return }
        }
        if process == nil {
            // Also before the first unlock after a reboot: the app then runs with its protected
            // files closed ([HD-14], docs/ios-policy.md §Protection).
            let afterForceQuit = timeline.forceQuit && !profile.flag(.forceQuitLocationRelaunch)
            guard !afterForceQuit else { return }
            launch(reason)
        } else if process?.state == .suspended {
            wake(reason)
        }
        guard isRunning else { return }
        deliver(.locationFix(fix(accuracyRadius: rng.uniform(radius * 0.2...radius)), source: source))
        afterAppCode()
    }

    /// Checks the significant-change service and the resume region once a minute.
    mutating func checkLocationNets() {
        let here = position
        if location.significantChange(
            at: now, here: here, distance: profile[.significantChangeDistance],
            minimumInterval: profile.duration(.significantChangeMinInterval))
        {
            locationEvent(
                .significantChange, source: .significantChange, accuracy: profile[.significantChangeFixAccuracy])
        }
        if environment.authorization == .always, environment.preciseLocation,
            let region = location.regionExit(here: here, margin: profile[.regionExitMargin])
        {
            queue.push(.regionExit(version: region.version), at: now + profile.duration(.regionLatency))
        }
    }

    mutating func regionExited(version: Int) {
        guard location.regionExited(version: version) else { return }
        locationEvent(.regionExit, source: .regionExit, accuracy: 100)
    }

    mutating func visited(_ place: Coordinate) {
        guard location.visitsOn, environment.authorization == .always else { return }
        locationEvent(.visit, source: .visit, accuracy: 80)
    }
}

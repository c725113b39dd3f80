import BackgroundCore

/// Core Location as the system runs it for one app: standard updates (with their in-use status,
/// automatic pause and distance filter), the one-shot request, significant changes, visits, the
/// resume region, the approximate position of a phone without Precise Location, and the
/// background activity and service sessions (iOS 17, 18).
///
/// Running services die with the process; significant changes, visits and region monitoring are
/// the system's and stay. The simulation decides when and what is delivered (authorisation, the
/// process's state, timing); this type keeps what runs.
///
/// ```swift
/// var location = LocationServices()
/// if location.startUpdates(request, inUse: true) { /* queue the first delivery tick */ }
/// location.processEnded()   // updates stop; the region stays monitored
/// ```
struct LocationServices: Sendable {
    struct Region: Hashable, Sendable {
        var center: Coordinate
        var radius: Double
        var version: Int
    }

    // Standard updates and the one-shot request (the process's).
    private(set) var standardUpdates: LocationUpdatesRequest?
    /// The running standard updates were started while the app was in use (docs/ios-policy.md §Location: a
    /// When-In-Use app that starts them in use, with `allowsBackgroundLocationUpdates`, "continues
    /// to run in the background when location services are active").
    private(set) var updatesStartedInUse = false
    private(set) var pausedAutomatically = false
    private var deliveryScheduled = false
    private var lastDelivered: Coordinate?
    private(set) var oneShotPending = false
    /// Numbers the one-shot requests, so a request's timeout does not end a later one.
    private(set) var oneShotRequest = 0

    // The system's services.
    private(set) var significantChangesOn = false
    private var lastSignificantChange: (at: Instant, place: Coordinate)?
    private(set) var visitsOn = false
    private(set) var region: Region?
    private var regionVersion = 0
    private var regionExitPending = false
    /// The approximate position last handed out while Precise Location is off, and when.
    private var approximatePlace: (at: Instant, place: Coordinate)?

    // Sessions (iOS 17, 18).
    /// A `CLBackgroundActivitySession` is held now, and was when the process last died.
    private(set) var activitySession = false
    private(set) var activitySessionAtExit = false
    /// iOS 18: a `CLServiceSession` is held now, and was when the process last died.
    private(set) var serviceSessionHeld = false
    private(set) var serviceSessionAtExit = false
    /// iOS 18: the app missed recreating its service session after a relaunch; it gets no
    /// location until it creates one.
    private(set) var locationAbandoned = false
    /// The process (generation) already warned about an activity session begun in the background.
    private var backgroundSessionWarned = 0

    // MARK: Standard updates

    /// Standard updates still running that are not paused and may keep a background app running.
    var runsBackgroundUpdates: Bool {
        standardUpdates?.allowsBackgroundUpdates == true && !pausedAutomatically
    }

    /// `startUpdatingLocation`; `inUse`: the app may start them "in use" now. Starting updates that
    /// already run does not stop them: they keep the in-use status they were started with, and
    /// gain it if the app is in use now. Returns `true` when the first delivery tick must be queued.
    mutating func startUpdates(_ request: LocationUpdatesRequest, inUse: Bool) -> Bool {
        let alreadyRunning = standardUpdates != nil && !pausedAutomatically
        updatesStartedInUse = (alreadyRunning && updatesStartedInUse) || inUse
        standardUpdates = request
        pausedAutomatically = false
        lastDelivered = nil
        guard !deliveryScheduled else { return false }
        deliveryScheduled = true
        return true
    }

    mutating func stopUpdates() {
        standardUpdates = nil
        updatesStartedInUse = false
    }

    /// A delivery tick comes; `current`: it belongs to the running process. The running request,
    /// if the next tick must be queued.
    mutating func deliveryTick(current: Bool) -> LocationUpdatesRequest? {
        deliveryScheduled = false
        guard current, let request = standardUpdates else { return nil }
        deliveryScheduled = true
        return request
    }

    /// The updates paused automatically (no automatic resume); for a When-In-Use app
    /// (`endsInUse`) the pause "ends access to location changes until the app is launched again".
    mutating func pauseAutomatically(endsInUse: Bool) {
        pausedAutomatically = true
        if endsInUse { updatesStartedInUse = false }
    }

    /// Whether a fix at `here` passes the distance filter; if so it is the last delivered.
    mutating func passesDistanceFilter(_ here: Coordinate, filter: Double?) -> Bool {
        if let filter, let last = lastDelivered, last.distance(to: here) < filter { return false }
        lastDelivered = here
        return true
    }

    /// `requestLocation()`: `false` when one is already pending (the request merges with it).
    mutating func requestOneShot() -> Bool {
        guard !oneShotPending else { return false }
        oneShotPending = true
        oneShotRequest += 1
        return true
    }

    /// The pending one-shot request completes: `false` if none was pending.
    mutating func completeOneShot() -> Bool {
        guard oneShotPending else { return false }
        oneShotPending = false
        return true
    }

    /// The one-shot request numbered `request` ends without a fix (an error, or its timeout):
    /// `false` if it is no longer pending.
    mutating func failOneShot(request: Int) -> Bool {
        guard oneShotPending, request == oneShotRequest else { return false }
        oneShotPending = false
        return true
    }

    // MARK: Significant changes, visits, the resume region

    /// `startMonitoringSignificantLocationChanges`: measured from `place` if it was off.
    mutating func startSignificantChanges(at now: Instant, place: Coordinate) {
        if !significantChangesOn { lastSignificantChange = (now, place) }
        significantChangesOn = true
    }

    mutating func stopSignificantChanges() { significantChangesOn = false }

    /// Whether the phone at `here` moved far enough, long enough after the last significant
    /// change, for a new one; if so it becomes the last.
    mutating func significantChange(
        at now: Instant, here: Coordinate, distance: Double, minimumInterval: Duration
    ) -> Bool {
        guard significantChangesOn, let last = lastSignificantChange, here.distance(to: last.place) >= distance,
            now - last.at >= minimumInterval
        else { return false }
        lastSignificantChange = (now, here)
        return true
    }

    mutating func setVisits(_ on: Bool) { visitsOn = on }

    /// Monitors a new resume region (replacing the old one); returns its version.
    mutating func monitorRegion(center: Coordinate, radius: Double) -> Int {
        regionVersion += 1
        region = Region(center: center, radius: radius, version: regionVersion)
        regionExitPending = false
        return regionVersion
    }

    mutating func stopRegionMonitoring() { region = nil }

    /// The phone at `here` is more than `margin` outside the region: the region whose exit is now
    /// pending (once), or `nil`.
    mutating func regionExit(here: Coordinate, margin: Double) -> Region? {
        guard let region, !regionExitPending, here.distance(to: region.center) > region.radius + margin else {
            return nil
        }
        regionExitPending = true
        return region
    }

    /// The exit of the region of `version` is reported: `false` if it was replaced or stopped.
    mutating func regionExited(version: Int) -> Bool {
        guard let region, region.version == version else { return false }
        self.region = nil
        regionExitPending = false
        return true
    }

    // MARK: Approximate location

    /// The approximate position at `now`: the centre of the `degrees` grid cell containing `here`
    /// at the last refresh, refreshed every `refresh` ("at most a few times per hour").
    mutating func approximatePlace(
        at now: Instant, refresh: Duration, degrees: Double, here: Coordinate
    ) -> Coordinate {
        if approximatePlace == nil || now - (approximatePlace?.at ?? now) >= refresh {
            approximatePlace = (
                now,
                Coordinate(
                    latitude: ((here.latitude / degrees).rounded(.down) + 0.5) * degrees,
                    longitude: ((here.longitude / degrees).rounded(.down) + 0.5) * degrees)
            )
        }
        return approximatePlace?.place ?? here
    }

    /// Precise Location was switched: the next approximate position is taken afresh.
    mutating func forgetApproximatePlace() { approximatePlace = nil }

    // MARK: Sessions

    mutating func beginActivitySession() { activitySession = true }

    /// The activity session ends (a service session the app created with it ends on its own,
    /// `serviceSessionInvalidated`).
    mutating func endActivitySession() { activitySession = false }

    /// Whether the process of `generation` is yet to be warned about a background activity
    /// session; it is now.
    mutating func warnsOfBackgroundSession(generation: Int) -> Bool {
        guard backgroundSessionWarned != generation else { return false }
        backgroundSessionWarned = generation
        return true
    }

    /// A `CLServiceSession` is created: `true` if it ends the app's abandonment (location resumes).
    mutating func serviceSessionCreated() -> Bool {
        serviceSessionHeld = true
        guard locationAbandoned else { return false }
        locationAbandoned = false
        return true
    }

    mutating func serviceSessionInvalidated() { serviceSessionHeld = false }

    /// iOS 18: no service session was recreated in time after a relaunch.
    mutating func abandon() { locationAbandoned = true }

    // MARK: Process death

    /// The process died: its updates, request and sessions end (remembered for the relaunch);
    /// the system's monitoring stays.
    mutating func processEnded() {
        deliveryScheduled = false
        standardUpdates = nil
        updatesStartedInUse = false
        pausedAutomatically = false
        oneShotPending = false
        activitySessionAtExit = activitySession
        activitySession = false
        serviceSessionAtExit = serviceSessionHeld
        serviceSessionHeld = false
    }
}

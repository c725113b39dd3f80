import BackgroundCore
import Testing

@testable import IOSSimulator

/// Core Location's services for one app: what runs, what a death ends, what the system keeps.
@Suite struct LocationServicesTests {
    let start = Instant(milliseconds: 1_700_000_000_000)
    let home = Coordinate(latitude: 31.23, longitude: 121.47)

    @Test func startingUpdatesQueuesOneDeliveryTickAndKeepsTheInUseStatusTheyStartedWith() {
        var location = LocationServices()
        let request = LocationUpdatesRequest(accuracy: .best, pausesAutomatically: true)
        #expect(location.startUpdates(request, inUse: true) == true)
        #expect(location.startUpdates(request, inUse: false) == false)  // a tick is already queued
        #expect(location.updatesStartedInUse)  // still running: keeps its in-use status
        #expect(location.runsBackgroundUpdates)
        location.pauseAutomatically(endsInUse: true)
        #expect(!location.runsBackgroundUpdates)
        #expect(!location.updatesStartedInUse)
        _ = location.startUpdates(request, inUse: false)  // restarted after the pause, not in use
        #expect(!location.updatesStartedInUse)
        #expect(location.runsBackgroundUpdates)
    }

    @Test func aDeliveryTickOfADeadProcessOrStoppedUpdatesQueuesNoMore() {
        var location = LocationServices()
        _ = location.startUpdates(.init(accuracy: .best), inUse: true)
        #expect(location.deliveryTick(current: true) != nil)
        #expect(location.deliveryTick(current: false) == nil)
        #expect(location.startUpdates(.init(accuracy: .best), inUse: true) == true)  // the next start queues a tick
        location.stopUpdates()
        #expect(location.deliveryTick(current: true) == nil)
        #expect(!location.updatesStartedInUse)
    }

    @Test func theDistanceFilterCountsFromTheLastDeliveredFixAndARestartForgetsIt() {
        var location = LocationServices()
        _ = location.startUpdates(.init(accuracy: .best, distanceFilter: 50), inUse: true)
        #expect(location.passesDistanceFilter(home, filter: 50) == true)
        #expect(location.passesDistanceFilter(home.offset(north: 30, east: 0), filter: 50) == false)
        #expect(location.passesDistanceFilter(home.offset(north: 60, east: 0), filter: 50) == true)
        _ = location.startUpdates(.init(accuracy: .best, distanceFilter: 50), inUse: true)
        #expect(location.passesDistanceFilter(home.offset(north: 70, east: 0), filter: 50) == true)
        #expect(location.passesDistanceFilter(home, filter: nil) == true)
    }

    @Test func oneOneShotRequestAtATime() {
        var location = LocationServices()
        #expect(location.requestOneShot() == true)
        #expect(location.requestOneShot() == false)
        #expect(location.completeOneShot() == true)
        #expect(location.completeOneShot() == false)
    }

    @Test func significantChangesNeedDistanceAndTimeSinceTheLastOne() {
        var location = LocationServices()
        let far = home.offset(north: 600, east: 0)
        #expect(
            location.significantChange(at: start, here: far, distance: 500, minimumInterval: .seconds(300)) == false)
        location.startSignificantChanges(at: start, place: home)
        location.startSignificantChanges(at: start + .seconds(100), place: far)  // already on: unchanged
        #expect(
            location.significantChange(
                at: start + .seconds(200), here: far, distance: 500, minimumInterval: .seconds(300)) == false)
        #expect(
            location.significantChange(
                at: start + .seconds(300), here: far, distance: 500, minimumInterval: .seconds(300)) == true)
        #expect(
            location.significantChange(
                at: start + .seconds(900), here: far, distance: 500, minimumInterval: .seconds(300)) == false)
        location.stopSignificantChanges()
        #expect(!location.significantChangesOn)
    }

    @Test func aRegionExitIsReportedOnceAndAReplacedRegionsExitIsStale() {
        var location = LocationServices()
        let first = location.monitorRegion(center: home, radius: 100)
        let outside = home.offset(north: 200, east: 0)
        #expect(location.regionExit(here: home, margin: 10) == nil)
        #expect(location.regionExit(here: outside, margin: 10)?.version == first)
        #expect(location.regionExit(here: outside, margin: 10) == nil)  // already pending
        let second = location.monitorRegion(center: outside, radius: 100)
        #expect(location.regionExited(version: first) == false)
        #expect(location.regionExited(version: second) == true)
        #expect(location.region == nil)
    }

    @Test func theApproximatePlaceIsAGridCellCentreRefreshedOnlyAfterItsInterval() {
        var location = LocationServices()
        let degrees = 3000.0 / 111_320
        let first = location.approximatePlace(at: start, refresh: .seconds(900), degrees: degrees, here: home)
        let moved = home.offset(north: 20_000, east: 0)
        #expect(
            location.approximatePlace(at: start + .seconds(60), refresh: .seconds(900), degrees: degrees, here: moved)
                == first)
        let later = location.approximatePlace(
            at: start + .seconds(900), refresh: .seconds(900), degrees: degrees, here: moved)
        #expect(later != first)
        #expect(later.distance(to: moved) < 3000)
        location.forgetApproximatePlace()
        #expect(
            location.approximatePlace(at: start + .seconds(901), refresh: .seconds(900), degrees: degrees, here: home)
                == first)
    }

    @Test func aDeathEndsUpdatesAndSessionsButRemembersTheSessionsAndKeepsTheSystemsServices() {
        var location = LocationServices()
        _ = location.startUpdates(.init(accuracy: .best), inUse: true)
        _ = location.requestOneShot()
        location.startSignificantChanges(at: start, place: home)
        location.setVisits(true)
        _ = location.monitorRegion(center: home, radius: 100)
        location.beginActivitySession()
        _ = location.serviceSessionCreated()
        location.processEnded()
        #expect(location.standardUpdates == nil)
        #expect(!location.oneShotPending)
        #expect(!location.activitySession && location.activitySessionAtExit)
        #expect(!location.serviceSessionHeld && location.serviceSessionAtExit)
        #expect(location.significantChangesOn && location.visitsOn && location.region != nil)
        // A start after the death queues a new tick (the old one died with the process).
        #expect(location.startUpdates(.init(accuracy: .best), inUse: true) == true)
    }

    @Test func anAbandonedAppGetsLocationBackWhenItCreatesAServiceSession() {
        var location = LocationServices()
        #expect(location.serviceSessionCreated() == false)
        location.abandon()
        #expect(location.locationAbandoned)
        #expect(location.serviceSessionCreated() == true)
        #expect(!location.locationAbandoned)
        location.endActivitySession()
        #expect(location.serviceSessionHeld, "the service session is the app's to invalidate")
        location.serviceSessionInvalidated()
        #expect(!location.serviceSessionHeld)
    }

    @Test func theBackgroundSessionWarningIsOncePerProcess() {
        var location = LocationServices()
        #expect(location.warnsOfBackgroundSession(generation: 1) == true)
        #expect(location.warnsOfBackgroundSession(generation: 1) == false)
        #expect(location.warnsOfBackgroundSession(generation: 3) == true)
    }
}

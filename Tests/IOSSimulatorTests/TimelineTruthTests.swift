import BackgroundCore
import IOSSimulator
import LocationLog
import Testing
import TrackGeometry

/// The timeline judged against the simulator's truth (issue 24 item 2), a reduced set of
/// `bgtrack-bench timeline`: a change that breaks detection fails here.
@Suite("Timeline against the simulator's truth")
struct TimelineTruthTests {
    @Test func theTruthOfTheCommuteIsItsStaysAndTheTripsBetween() throws {
        let scenario = Scenario.commute()
        let truth = scenario.track.truth(
            from: scenario.start, to: scenario.start + scenario.duration, minimumStay: .seconds(600))
        // Home, office, restaurant, office, home (the evening stroll returns home: home again).
        #expect(truth.stays.count == 6)
        #expect(truth.trips.count == 5)
        #expect(truth.stays.first?.cutAtStart == true && truth.stays.last?.cutAtEnd == true)
        // The lunch walk: 350 m south and 450 m east, there and back.
        let lunch = truth.trips[1].distance
        #expect(abs(lunch - (350 * 350 + 450 * 450).squareRoot()) < 5)
    }

    @Test func theWeekHasErrandsADriveAndAFlightGap() throws {
        let week = Scenario.week()
        let truth = week.track.truth(from: week.start, to: week.start + week.duration, minimumStay: .seconds(600))
        #expect(truth.stays.count >= 20)
        // The kiosk stop (about 5 minutes) is no stay.
        #expect(!truth.stays.contains { $0.departure - $0.arrival < .seconds(600) })
        #expect(truth.trips.contains { $0.distance > 1_000_000 })  // the flight
    }

    @Test func aScoreCountsMatchesEdgesAndDistances() {
        let start = Instant(milliseconds: 0)
        let place = Coordinate(latitude: 31.2, longitude: 121.4)
        let other = place.offset(north: 1000, east: 0)
        let truth = TimelineTruth(
            stays: [
                .init(
                    arrival: start, departure: start + .seconds(3600), place: place, cutAtStart: true, cutAtEnd: false),
                .init(
                    arrival: start + .seconds(4200), departure: start + .seconds(9000), place: other, cutAtStart: false,
                    cutAtEnd: true),
            ],
            trips: [.init(departure: start + .seconds(3600), arrival: start + .seconds(4200), distance: 1000)])
        let entries: [TimelineEntry] = [
            .stay(
                Stay(
                    start: start, end: start + .seconds(3540), latitude: place.latitude, longitude: place.longitude,
                    radius: 5, sampleCount: 30, inferred: false)),
            .trip(
                Trip(
                    start: start + .seconds(3540), end: start + .seconds(4260), distance: 1040, sampleCount: 6,
                    startLatitude: 0, startLongitude: 0, endLatitude: 0, endLongitude: 0)),
            .stay(
                Stay(
                    start: start + .seconds(4260), end: start + .seconds(9000), latitude: other.latitude,
                    longitude: other.longitude, radius: 5, sampleCount: 40, inferred: false)),
            // A stay far from any true one: a false positive.
            .stay(
                Stay(
                    start: start + .seconds(5000), end: start + .seconds(6000), latitude: 0, longitude: 0, radius: 5,
                    sampleCount: 5, inferred: false)),
        ]
        let score = TimelineScore(entries: entries, truth: truth, radius: 100)
        #expect(score.staysExpected == 2 && score.staysFound == 3 && score.staysMatched == 2)
        #expect(abs(score.precision - 2.0 / 3) < 1e-9 && score.recall == 1)
        #expect(score.startErrors == [60] && score.endErrors == [60])
        #expect(score.tripDistanceErrors.count == 1 && abs(score.tripDistanceErrors[0] - 0.04) < 1e-9)
    }
}

import BackgroundCore
import IOSSimulator
import Testing

@Suite struct MovementTrackTests {
    let start = Instant(milliseconds: 0)
    let home = Coordinate(latitude: 31.2304, longitude: 121.4737)

    @Test func interpolatesAlongTheWayAndStaysPut() {
        let away = home.offset(north: 1_000, east: 0)
        let track = MovementTrack(
            start: start, origin: home, legs: [.stay(until: 100), .move(through: [away], speed: 10)])
        #expect(track.position(at: start + .seconds(50)) == home)
        #expect(!track.isMoving(at: start + .seconds(50)))
        let halfway = track.position(at: start + .seconds(150))
        #expect(abs(halfway.distance(to: home) - 500) < 5)
        #expect(track.isMoving(at: start + .seconds(150)))
        #expect(abs(track.speed(at: start + .seconds(150)) - 10) < 0.1)
        #expect(track.position(at: start + .seconds(10_000)).distance(to: away) < 1)
    }

    @Test func haversineMatchesAKnownDistance() {
        let shanghai = Coordinate(latitude: 31.2304, longitude: 121.4737)
        let beijing = Coordinate(latitude: 39.9042, longitude: 116.4074)
        #expect(abs(shanghai.distance(to: beijing) - 1_067_000) < 5_000)
    }

    @Test func theCommuteHasLongStaysForVisits() {
        let stays = Scenario.commute().track.stays(atLeast: .seconds(600))
        #expect(stays.count >= 4)
    }
}

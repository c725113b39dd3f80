package import BackgroundCore

extension Scenario {
    /// A week of varied days, for judging the timeline: Monday's commute, Tuesday's errands (four
    /// stops of 12-40 minutes and one of 5, too short for a stay), Wednesday's long drive (150 km
    /// out, three hours there, back), a day at home, Friday's flight (the phone off from take-off
    /// to landing: a gap with different positions at its ends), and a weekend walking around the
    /// destination. Days start at midnight; the person sleeps at home (or the hotel).
    package static func week(start: Instant = defaultStart) -> Scenario {
        let hour = 3600.0
        let day = 24 * hour
        let office = home.offset(north: 9_500, east: 5_300)
        let shop = home.offset(north: -800, east: 600)
        let post = home.offset(north: -1_400, east: -300)
        let cafe = home.offset(north: 500, east: -1_200)
        let kiosk = home.offset(north: 300, east: -600)
        let coast = home.offset(north: 60_000, east: 140_000)
        let airport = home.offset(north: -25_000, east: 18_000)
        let destination = home.offset(north: 1_100_000, east: -300_000)
        let hotel = destination.offset(north: 6_000, east: -4_000)
        let museum = hotel.offset(north: 1_200, east: 900)
        let park = hotel.offset(north: -700, east: 1_500)
        var legs: [MovementTrack.Leg] = []
        func at(_ dayIndex: Int, _ hours: Double) -> Double { Double(dayIndex) * day + hours * hour }
        // Monday: to the office by car-like speed and back, lunch nearby.
        legs += [
            .stay(until: at(0, 8)), .move(through: [office], speed: 9),
            .stay(until: at(0, 12)), .move(through: [office.offset(north: -400, east: 300)], speed: 1.3),
            .stay(until: at(0, 12.75)), .move(through: [office], speed: 1.3),
            .stay(until: at(0, 17.5)), .move(through: [home], speed: 9),
        ]
        // Tuesday: errands on foot and by bicycle.
        legs += [
            .stay(until: at(1, 9.5)), .move(through: [home.offset(north: -400, east: 0), shop], speed: 4.5),
            .stay(until: at(1, 10.2)), .move(through: [post], speed: 4.5),
            .stay(until: at(1, 10.6)), .move(through: [kiosk], speed: 4.5),
            .stay(until: at(1, 11.0)),  // ~5 minutes: not a stay
            .move(through: [cafe], speed: 4.5),
            .stay(until: at(1, 11.8)), .move(through: [home], speed: 1.3),
            .stay(until: at(1, 15)), .move(through: [shop], speed: 1.3),
            .stay(until: at(1, 15.35)), .move(through: [home], speed: 1.3),
        ]
        // Wednesday: a long drive to the coast and back.
        legs += [
            .stay(until: at(2, 8)),
            .move(
                through: [home.offset(north: 20_000, east: 40_000), home.offset(north: 45_000, east: 90_000), coast],
                speed: 25),
            .stay(until: at(2, 13.5)),
            .move(
                through: [home.offset(north: 45_000, east: 90_000), home.offset(north: 20_000, east: 40_000), home],
                speed: 25),
        ]
        // Thursday at home, a short walk in the afternoon.
        legs += [
            .stay(until: at(3, 16)), .move(through: [home.offset(north: 300, east: 200), home], speed: 1.2),
        ]
        // Friday: to the airport, the flight (phone off), to the hotel.
        legs += [
            .stay(until: at(4, 9)), .move(through: [airport], speed: 20),
            .stay(until: at(4, 11.5)), .move(through: [destination], speed: 230),
            .stay(until: at(4, 15)), .move(through: [hotel], speed: 15),
        ]
        // The weekend: walks from the hotel.
        legs += [
            .stay(until: at(5, 10)), .move(through: [museum], speed: 1.3),
            .stay(until: at(5, 12.5)), .move(through: [park], speed: 1.3),
            .stay(until: at(5, 14)), .move(through: [hotel], speed: 1.3),
            .stay(until: at(6, 11)), .move(through: [park], speed: 1.3),
            .stay(until: at(6, 12)), .move(through: [hotel], speed: 1.3),
            .stay(until: at(7, 0)),
        ]
        /// The phone charges overnight, at home or at the hotel, 23:00 to 07:00 as in the
        /// commute: on one charge it would be empty by Tuesday morning (3 % an hour), and a
        /// phone below 20 % samples with Wi-Fi accuracy only.
        func overnightCharging(days: Int) -> [(at: Double, Happening)] {
            [(at: 0, .charging(true))]
                + (0..<days).flatMap { day in
                    [(at: at(day, 7), Happening.charging(false)), (at: at(day, 23), Happening.charging(true))]
                }
        }
        let takeOff = at(4, 11.5)
        let landing = takeOff + airport.distance(to: destination) / 230 / 3600 * hour
        return Scenario(
            name: "week", start: start, duration: .seconds(7 * 86_400),
            track: MovementTrack(start: start, origin: home, legs: legs),
            happenings: [
                (at(0, 7.5), .openApp(seconds: 120)), (at(1, 9.4), .openApp(seconds: 60)),
                (at(2, 7.9), .openApp(seconds: 120)), (at(3, 12), .openApp(seconds: 300)),
                (takeOff - 600, .locationServices(false)), (landing + 300, .locationServices(true)),
                (landing + 360, .openApp(seconds: 120)), (at(5, 9), .openApp(seconds: 60)),
            ] + overnightCharging(days: 7),
            networkOutages: [],
            battery: (start: 1, drainPerHour: 0.03, chargePerHour: 0.4))
    }
}

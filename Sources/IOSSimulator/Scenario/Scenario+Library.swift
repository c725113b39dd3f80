package import BackgroundCore

extension Scenario {
    /// The scenarios `--scenario` accepts.
    package static let names = ["commute", "home-day", "night-shift", "week"]

    /// A scenario by name, or `nil` for an unknown one.
    package static func named(_ name: String, start: Instant = defaultStart) -> Scenario? {
        switch name {
        case "commute": return commute(start: start)
        case "home-day": return homeDay(start: start)
        case "night-shift": return nightShift(start: start)
        case "week": return week(start: start)
        default: return nil
        }
    }

    /// Monday 2024-11-25 00:00 UTC: the simulated days start here.
    package static let defaultStart = Instant(milliseconds: 1_732_492_800_000)

    static let home = Coordinate(latitude: 31.2304, longitude: 121.4737)

    /// A weekday in Shanghai: home at night, a walk + metro + walk commute, an office with a lunch
    /// walk, the same way back, an evening stroll; the app opened a few times; two phone calls;
    /// no network and no GPS in the metro (Wi-Fi positioning near its stations, about every
    /// 1.2 km); charging overnight; two silent pushes an hour from the server.
    package static func commute(start: Instant = defaultStart) -> Scenario {
        let station = home.offset(north: 600, east: 300)
        let officeStation = home.offset(north: 9_000, east: 5_500)
        let office = officeStation.offset(north: 500, east: -200)
        let restaurant = office.offset(north: -350, east: 450)
        let hour = 3600.0
        let track = MovementTrack(
            start: start, origin: home,
            legs: [
                .stay(until: 8 * hour),
                .move(through: [home.offset(north: 300, east: 0), station], speed: 1.4),
                .metro(
                    stations: stations(from: station, via: home.offset(north: 3_000, east: 2_500), to: officeStation),
                    speed: 11),
                .move(through: [office], speed: 1.4),
                .stay(until: 12 * hour),
                .move(through: [restaurant], speed: 1.3),
                .stay(until: 12.75 * hour),
                .move(through: [office], speed: 1.3),
                .stay(until: 18 * hour),
                .move(through: [officeStation], speed: 1.4),
                .metro(
                    stations: stations(from: officeStation, via: home.offset(north: 3_000, east: 2_500), to: station),
                    speed: 11),
                .move(through: [home], speed: 1.4),
                .stay(until: 20 * hour),
                .move(
                    through: [
                        home.offset(north: 400, east: 0), home.offset(north: 400, east: 400),
                        home.offset(north: 0, east: 400), home,
                    ], speed: 1.2),
                .stay(until: 24 * hour),
            ])
        return Scenario(
            name: "commute", start: start, duration: .seconds(86_400), track: track,
            happenings: [
                (0, .charging(true)),
                (7 * hour, .charging(false)),
                (7.5 * hour, .openApp(seconds: 300)),
                (9 * hour, .openApp(seconds: 120)),
                (10 * hour, .phoneCall(seconds: 300)),
                (12.5 * hour, .openApp(seconds: 180)),
                (15 * hour, .phoneCall(seconds: 600)),
                (17.9 * hour, .openApp(seconds: 120)),
                (21 * hour, .openApp(seconds: 600)),
                (23 * hour, .charging(true)),
            ],
            networkOutages: [(8.3 * hour)...(8.6 * hour), (18.3 * hour)...(18.6 * hour)],
            battery: (start: 0.8, drainPerHour: 0.04, chargePerHour: 0.4),
            silentPushesPerHour: 2)
    }

    /// The stations of a metro ride from `from` to `to` through `via`, about every 1.2 km.
    static func stations(from: Coordinate, via: Coordinate, to: Coordinate) -> [Coordinate] {
        var stations: [Coordinate] = []
        var here = from
        for target in [via, to] {
            let count = max(1, Int((here.distance(to: target) / 1_200).rounded()))
            stations += (1...count).map { here.interpolated(to: target, fraction: Double($0) / Double(count)) }
            here = target
        }
        return stations
    }

    /// A day at home: the phone barely moves, opened twice; shows what costs energy at rest.
    package static func homeDay(start: Instant = defaultStart) -> Scenario {
        let hour = 3600.0
        let track = MovementTrack(
            start: start, origin: home,
            legs: [
                .stay(until: 15 * hour),
                .move(through: [home.offset(north: 250, east: 100), home], speed: 1.2),
                .stay(until: 24 * hour),
            ])
        return Scenario(
            name: "home-day", start: start, duration: .seconds(86_400), track: track,
            happenings: [
                (9 * hour, .openApp(seconds: 300)),
                (19 * hour, .openApp(seconds: 300)),
            ],
            battery: (start: 1, drainPerHour: 0.02, chargePerHour: 0.4))
    }

    /// A courier's early shift: the phone restarts for an iOS update at 03:10 while charging and
    /// stays locked (its files closed) until the user first unlocks it at 07:30, after a drive
    /// round with four stops from 03:40; back home before 07:00, a walk in the afternoon. Only
    /// location events can run the app before the unlock.
    package static func nightShift(start: Instant = defaultStart) -> Scenario {
        let hour = 3600.0
        let depot = home.offset(north: 4_000, east: -6_000)
        let stops = [
            depot.offset(north: 2_500, east: 3_000), depot.offset(north: 6_000, east: 5_000),
            home.offset(north: 7_000, east: 4_000), home.offset(north: 2_000, east: 6_500),
        ]
        var legs: [MovementTrack.Leg] = [
            .stay(until: 3.67 * hour), .move(through: [depot], speed: 11), .stay(until: 4.3 * hour),
        ]
        for (index, stop) in stops.enumerated() {
            legs += [.move(through: [stop], speed: 10), .stay(until: (4.9 + 0.6 * Double(index)) * hour)]
        }
        legs += [
            .move(through: [home], speed: 10), .stay(until: 16 * hour),
            .move(through: [home.offset(north: 500, east: 200), home], speed: 1.3), .stay(until: 24 * hour),
        ]
        return Scenario(
            name: "night-shift", start: start, duration: .seconds(86_400),
            track: MovementTrack(start: start, origin: home, legs: legs),
            happenings: [
                (0, .charging(true)),
                (3 * hour + 600, .reboot),
                (3.5 * hour, .charging(false)),
                (7.5 * hour, .firstUnlock),
                (7.6 * hour, .openApp(seconds: 120)),
                (12 * hour, .openApp(seconds: 60)),
                (22 * hour, .charging(true)),
            ],
            battery: (start: 0.9, drainPerHour: 0.04, chargePerHour: 0.4))
    }
}

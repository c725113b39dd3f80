import ArgumentParser
import BackgroundCore
import Foundation
import IOSSimulator
import LocationLog
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack demo`: a simulated day against a real server on loopback, its accounting and its flags.
@Suite struct DemoTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func demo(_ arguments: [String]) throws -> DemoCommand {
        try #require(try BGTrack.parseAsRoot(["demo"] + arguments) as? DemoCommand)
    }

    /// The whole day over real HTTP: every fault happens for real, and every sample the phone
    /// stored is on the server, pending or quarantined, once. A second run on the same data is a
    /// DST day in Berlin: 23 hours, from midnight CET to midnight CEST.
    @Test func aDayWithFaultsLosesNothingAndASecondRunIsADSTDayInBerlin() async throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let options = try demo(["--data", data.path, "--exit", "--day", "2024-11-25", "--time-zone", "UTC"])
        let first = try await DemoRun(options: options, directory: data).run()
        await first.server.stop()
        let day = first.accounting
        #expect(day.lost.isEmpty, "lost seqs \(day.lost)")
        #expect(day.duplicated.isEmpty, "duplicated seqs \(day.duplicated)")
        #expect(day.created > 600)
        #expect(day.onServer + day.pending + day.quarantined == day.created)
        #expect(day.onServer > 600)
        // The faults really happened: refused uploads while the server was down, waits in the
        // outage, a refused heartbeat and the notice after the revoked session.
        #expect(first.text.contains("Result: nothing lost."))
        #expect(first.text.contains("× connection refused or lost"))
        #expect(first.text.contains("× no network (outage)"))
        #expect(first.text.contains("× login-expired"))
        #expect(first.text.contains("server stopped and restarted (1×)"))
        #expect(first.text.contains("invariant violations  0"))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("map-2024-11-25.html").path))

        #expect(first.text.contains("Demo day 2024-11-25 in Etc/UTC"))
        #expect(first.text.contains("first sample          2024-11-25 00:0"))

        let berlin = try demo(["--data", data.path, "--exit", "--day", "2024-03-31", "--time-zone", "Europe/Berlin"])
        let second = try await DemoRun(options: berlin, directory: data).run()
        await second.server.stop()
        #expect(second.accounting.lost.isEmpty && second.accounting.duplicated.isEmpty)
        #expect(second.text.contains("Demo day 2024-03-31 in Europe/Berlin"))
        #expect(second.text.contains(", 23 h, seed 1"))
        #expect(second.text.contains("first sample          2024-03-31 00:0"), "\(second.text)")
        #expect(second.text.contains("+01:00 Europe/Berlin"))
        #expect(second.text.contains("last sample           2024-03-31 23:"), "\(second.text)")
        #expect(second.text.contains("+02:00 Europe/Berlin"))
        #expect(second.text.contains("Faults of the day (local time, Europe/Berlin)"))
        #expect(
            second.text.contains("code: shell (BackgroundTracker, the iOS shell an app links)"),
            "the report says which code ran: the shipping shell")
        let state = try #require(try DemoState.load(from: data.appendingPathComponent("demo.json")))
        #expect(state.days == ["2024-11-25", "2024-03-31"])
        do {
            _ = try await DemoRun(options: options, directory: data).run()
            Issue.record("a day simulated before was simulated again")
        } catch {
            #expect("\(error)".contains("--day 2024-11-25 was simulated in"))
        }
        // The first day is still on the server.
        let store = try SQLiteTrackStore(path: data.appendingPathComponent("server.sqlite").path)
        let dayOne = try await store.samples(
            device: "demo-iphone", from: Scenario.defaultStart, to: Scenario.defaultStart + .seconds(86_400))
        #expect(dayOne.count >= day.onServer)
    }

    /// Without --day the demo simulates today, or the day after the last one when that was today
    /// or later; --day picks any day not simulated yet.
    @Test func theDayIsTodayOrTheDayAfterTheLastOne() throws {
        let today = 20_420  // 2025-11-28
        #expect(try DemoRun.day(asked: nil, today: today, simulated: [], data: "d") == today)
        #expect(try DemoRun.day(asked: nil, today: today, simulated: ["2024-11-25"], data: "d") == today)
        #expect(try DemoRun.day(asked: nil, today: today, simulated: ["2025-11-28"], data: "d") == today + 1)
        #expect(try DemoRun.day(asked: 19_000, today: today, simulated: ["2025-11-28"], data: "d") == 19_000)
        #expect(throws: DemoError.self) {
            try DemoRun.day(asked: today, today: today, simulated: ["2025-11-28"], data: "d")
        }
    }

    /// The scenario's wall-clock times are local: on Berlin's spring DST day 08:00 is 7 hours after
    /// midnight, on its autumn day 9; in Kathmandu always 8.
    @Test(arguments: [
        ("Europe/Berlin", "2024-03-31", 7.0, 23.0), ("Europe/Berlin", "2024-10-27", 9.0, 25.0),
        ("America/New_York", "2024-03-10", 7.0, 23.0), ("Asia/Kathmandu", "2024-11-25", 8.0, 24.0),
        ("Australia/Lord_Howe", "2024-04-07", 8.5, 24.5),
    ])
    func wallClockTimesAreLocal(zone: String, day: String, eight: Double, length: Double) throws {
        let local = LocalTime(zone: try TimeZoneName.zone(zone))
        let number = try #require(try demo(["--day", day]).dayNumber())
        let range = local.range(ofDay: number)
        #expect(Double((range.upperBound - range.lowerBound).seconds) / 3600 == length)
        let elapsed = DemoRun.elapsed(wall: 8 * 3600, day: number, in: local, from: range.lowerBound)
        #expect(elapsed / 3600 == eight)
        #expect(local.text(range.lowerBound + .seconds(Int64(elapsed))).contains(" 08:00:00 "))
        // The simulated person leaves home at 08:00 local time.
        let scenario = Scenario.demoDay(start: range.lowerBound).inLocalTime {
            DemoRun.elapsed(wall: $0, day: number, in: local, from: range.lowerBound)
        }
        let leaving = range.lowerBound + .seconds(Int64(elapsed))
        #expect(!scenario.track.isMoving(at: leaving - .seconds(60)))
        #expect(scenario.track.isMoving(at: leaving + .seconds(60)))
    }

    /// The accounting finds a lost and a duplicated sample when there are some.
    @Test func accountingReportsLostAndDuplicatedSeqs() async throws {
        let phone = try LocationStore.inMemory()
        let server = try SQLiteTrackStore.inMemory()
        let start = Scenario.defaultStart
        _ = try await server.addDevice(name: "p", tokenHash: "h", at: start)
        var samples: [Sample] = []
        for minute in 0..<5 {
            let fix = LocationFix(
                timestamp: start + .seconds(minute * 120), latitude: 31.23, longitude: 121.47 + Double(minute) * 0.001,
                horizontalAccuracy: 10)
            samples.append(try phone.append(fix, trigger: .timer, state: .background))
        }
        // Seq 1 and 2 reached the server, 2 twice under two keys; 3 was deleted unacknowledged
        // (lost); 4 and 5 are still pending.
        func row(_ sample: Sample, key: String) -> TrackSample {
            TrackSample(
                key: key, id: sample.id.uuidString, seq: sample.seq,
                values: SampleValues(time: sample.time, latitude: sample.latitude, longitude: sample.longitude),
                source: .native)
        }
        _ = try await server.insert(
            [row(samples[0], key: "a"), row(samples[1], key: "b"), row(samples[1], key: "b2")], device: "p", at: start)
        _ = try phone.acknowledge(deleting: Set(samples[0...2].map(\.id)), quarantining: [:], at: start)
        let counted = try await DemoAccounting.count(
            phone: phone, firstSeq: 1, server: server, device: "p", from: start, to: start + .seconds(3600))
        #expect(counted.created == 5)
        #expect(counted.lost == [3])
        #expect(counted.duplicated == [2])
        #expect(counted.pending == 2 && counted.onServer == 2)
    }

    @Test(arguments: [
        (["--hours", "0"], "--hours"), (["--hours", "nan"], "--hours"), (["--hours", "100000"], "--hours"),
        (["--port", "70000"], "--port"), (["--port", "-1"], "--port"), (["--ios", "5"], "--ios"),
        (["--data", ""], "--data"), (["--tile-url", "http://tiles/x.png"], "--tile-url"),
        (["--strategy", "teleport"], "strategy"), (["--seed", "-3"], "seed"),
        (["--day", "2024-02-30"], "--day"), (["--day", "25.11.2024"], "--day"), (["--day", "1970-01-01"], "--day"),
        (["--time-zone", "Europe/Berln"], "--time-zone"),
    ])
    func badFlagsAreRefusedWithTheFlagNamed(arguments: [String], flag: String) {
        do {
            _ = try BGTrack.parseAsRoot(["demo"] + arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(BGTrack.message(for: error).contains(flag), "\(BGTrack.message(for: error))")
        }
    }

    @Test func aDamagedStateFileIsAClearErrorAndIsKept() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("demo.json")
        try Data("{\"deviceToken\": 7".utf8).write(to: file)
        #expect {
            _ = try DemoState.load(from: file)
        } throws: { error in
            "\(error)".contains("is not a demo state file") && "\(error)".contains("another --data")
        }
        #expect(try Data(contentsOf: file) == Data("{\"deviceToken\": 7".utf8))
    }
}

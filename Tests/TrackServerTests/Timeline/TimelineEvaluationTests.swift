import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator
import LocationLog
import LoopbackServer
import Testing
import TrackGeometry
import TrackServer

/// Issue 24 item 2 in CI: a reduced evaluation (2 seeds, the default strategy) through the real
/// phone store and sync, real HTTP on loopback and a real `TrackServer`, the timeline read from
/// `GET /v1/devices/{id}/timeline` (the server's incremental updater), scored against the
/// simulator's truth. A change that breaks detection, the sync or the route fails here.
@Suite("Timeline evaluation through the real server")
struct TimelineEvaluationTests {
    /// The issue's targets: precision and recall ≥ 0.95, every judged stay start and end within
    /// one sampling interval (120 s), every judged trip's distance within 5 %.
    @Test(arguments: ["commute", "home-day"])
    func detectionMeetsTheTargets(scenario: String) async throws {
        let rows = try await EvaluationServer.table(
            scenarios: [scenario], strategies: [.adaptive], seeds: 1...2, app: IOSShell())
        let score = try #require(rows.first?.score)
        let table = TimelineEvaluation.markdown(rows)
        #expect(score.staysExpected >= 4, "\(table)")
        #expect(score.precision >= 0.95, "\(table)")
        #expect(score.recall >= 0.95, "\(table)")
        let edges = score.startErrors + score.endErrors
        #expect(edges.count >= score.staysMatched, "\(table)")
        #expect(edges.allSatisfy { $0 <= 120 }, "edge errors (s): \(edges.sorted().suffix(5))")
        let errors = score.tripDistanceErrors.sorted()
        #expect(!errors.isEmpty, "\(table)")
        // The home day's one trip, a 538 m out-and-back walk, was short by ~10 % while its first
        // moving slot took a Wi-Fi fix without speed; the motion coprocessor now sends that slot
        // to GPS (BENCHMARKS.md at 28e21c7, 2026-11-27: Core Motion), so it is held to 5 % like the commute.
        #expect(errors.allSatisfy { $0 <= 0.05 }, "trip distance errors: \(errors.suffix(5))")
    }

    /// The week (one seed: a simulated week takes a while in a debug build) meets precision and
    /// recall, every judged edge within one interval and every trip within 5 %. Tuesday's first
    /// ride was cut at its corner by 5-6.4 % in 10 of 20 seeds until the adaptive strategy took a
    /// departure fix when the coprocessor reported the ride (BENCHMARKS.md at 28e21c7, 2026-11-28); the shop
    /// stop that made a false stay in 11 of 20 seeds must make none.
    @Test func theWeekMeetsTheTargets() async throws {
        let rows = try await EvaluationServer.table(
            scenarios: ["week"], strategies: [.adaptive], seeds: 1...1, app: IOSShell())
        let score = try #require(rows.first?.score)
        let table = TimelineEvaluation.markdown(rows)
        #expect(score.staysExpected >= 20, "\(table)")
        #expect(score.staysFound == score.staysMatched, "no false stay: \(table)")
        #expect(score.recall >= 0.95, "\(table)")
        let edges = score.startErrors + score.endErrors
        #expect(edges.allSatisfy { $0 <= 120 }, "edge errors (s): \(edges.sorted().suffix(5))")
        let errors = score.tripDistanceErrors.sorted()
        #expect(errors.count >= 10, "\(table)")
        #expect(errors.allSatisfy { $0 <= 0.05 }, "trip distance errors: \(errors.suffix(5))")
    }

    /// The server's incremental timeline is the offline one: the same entries a `TimelineBuilder`
    /// makes from the samples the server stored.
    @Test func theServersTimelineIsTheOfflineOne() async throws {
        let settings = TimelineSettings.sampling(every: .seconds(120))
        let server = try await EvaluationServer.start(settings: settings)
        let scenario = try #require(Scenario.named("commute"))
        let configuration = SimulationConfiguration(
            strategy: .adaptive, ios: 17, app: IOSShell(), scenario: scenario,
            hours: scenario.duration.seconds / 3600, seed: 3)
        // On the main actor, as the shell (UIKit code) runs; the server answers from its own threads.
        let outcome = await MainActor.run { () -> Result<TimelineEvaluation.Run, any Error> in
            Result {
                try TimelineEvaluation.run(
                    configuration, settings: settings, connection: server.connect(configuration))
            }
        }
        let run = try outcome.get()
        let device = "eval-1-adaptive-3"
        let stored = try await server.store.samples(
            device: device, from: scenario.start, to: scenario.start + scenario.duration)
        await server.stop()
        #expect(run.samples > 0 && stored.count == run.samples)
        #expect(run.entries.count > 3)
        var builder = TimelineBuilder(settings: settings)
        var offline: [TimelineEntry] = []
        for sample in stored {
            offline += builder.add(
                SampleValues(
                    time: sample.time, latitude: sample.latitude, longitude: sample.longitude,
                    accuracy: sample.accuracy, speed: sample.speed))
        }
        offline += builder.finish()
        #expect(run.entries.map(\.start) == offline.map(\.start))
        #expect(run.entries.map(\.end) == offline.map(\.end))
    }

    /// The timeline answer the evaluation reads: malformed or unknown entries are refused with
    /// what is wrong, never scored as something else.
    @Test(arguments: [
        #"{"entries":[{"type":"stay","start":0,"end":1}]}"#,
        #"{"entries":[{"type":"trip","start":0,"end":1,"from":[1],"to":[1,2],"distance_m":3}]}"#,
        #"{"entries":[{"type":"visit","start":0,"end":1}]}"#,
        #"{"entries":[{"type":"gap","start":"x","end":1}]}"#,
        #"{"entries":"#,
        "",
    ])
    func aBadTimelineAnswerIsRefused(body: String) {
        #expect(throws: (any Error).self) { try TimelineDocument.entries(from: Data(body.utf8)) }
    }

    @Test func aTimelineAnswerReadsBackIntoEntries() throws {
        let body = #"""
            {"device":"d","entries":[
              {"type":"stay","start":0,"end":600000,"lat":1,"lon":2,"radius_m":30,"inferred":true,"samples":5},
              {"type":"trip","start":600000,"end":900000,"from":[1,2],"to":[1.01,2],"distance_m":1113,
               "mode":"cycling","samples":3},
              {"type":"gap","start":900000,"end":2000000,"explained":true,"reasons":[]}]}
            """#
        let entries = try TimelineDocument.entries(from: Data(body.utf8))
        #expect(entries.count == 3)
        guard case .stay(let stay) = entries[0], case .trip(let trip) = entries[1], case .gap = entries[2] else {
            Issue.record("wrong entry types: \(entries)")
            return
        }
        #expect(stay.inferred && stay.latitude == 1 && stay.longitude == 2 && stay.sampleCount == 5)
        #expect(trip.distance == 1113 && trip.mode == .cycling && trip.end == Instant(milliseconds: 900_000))
    }
}

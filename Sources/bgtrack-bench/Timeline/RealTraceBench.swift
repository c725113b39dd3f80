import BackgroundCore
import Foundation
import LocationLog
import LoopbackServer
import TrackGeometry

extension TimelineEntry {
    var kindName: String {
        switch self {
        case .stay(let stay): stay.inferred ? "inferred stay" : "stay"
        case .trip: "trip"
        case .gap: "gap"
        }
    }
}

/// `bgtrack-bench timeline --real DIR --peer FILE`: the timeline on real GPS traces (issue 38 item
/// 3, docs/timeline-evaluation.md). Each person's full-rate fixes are cut to what a phone sampling
/// every 120 s (and 180 s) sends, fed through every ingest path into a real server on loopback, and
/// the server's timeline is scored against the peer library's stays on the full-rate fixes, beside
/// the peer's own score on the same cut points.
enum RealTraceBench {
    static func run(
        directory: String, peerFile: String, intervals: [Int64], paths: [IngestPath], builderOnly: Bool,
        settings: TimelineSettings, misses: Bool
    ) async throws {
        let traces = try RealTrace.geoLife(URL(fileURLWithPath: directory))
        let peer = try JSONDecoder().decode(PeerStays.self, from: Data(contentsOf: URL(fileURLWithPath: peerFile)))
        let missing = traces.map(\.person).filter { peer.users[$0] == nil }
        guard missing.isEmpty else {
            throw EvaluationError(
                "\(peerFile) has no stays for \(missing.joined(separator: ", ")); run scripts/peer-stays.py on \(directory)"
            )
        }
        let fixes = traces.reduce(0) { $0 + $1.fixes.count }
        print("Real traces: \(traces.count) people, \(fixes) fixes, from \(directory)")
        print("Reference: \(peer.library), \(peer.method), on the full-rate fixes")
        print("")
        // Without bgtrack beside it, the `import` path says so when it comes to it.
        let bgtrack = (try? Child.beside("bgtrack")).map(URL.init(fileURLWithPath:))
        let server = try await EvaluationServer.start(settings: settings)
        defer { Task { await server.stop() } }
        let feed = RealTraceFeed(server: server, bgtrack: bgtrack)
        print(
            "| every | path | points | reference stays | found | matched | precision | recall "
                + "| bridged reference | matched | precision | recall | inferred "
                + "| start error s (median) | end error s (median) | trips judged | trip distance error (median abs) "
                + "| trip distance bias (median) |")
        print(
            "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                + "| ---: | ---: | ---: |")
        for seconds in intervals {
            var points = 0
            var own = (RealTraceScore(), RealTraceScore())
            var alone = (RealTraceScore(), RealTraceScore())
            for trace in traces {
                guard let person = peer.users[trace.person] else { continue }
                points += trace.sampled(every: seconds).count
                own.0.judge(stays: person.sampled(seconds, bridged: false), against: person.reference)
                own.1.judge(stays: person.sampled(seconds, bridged: true), against: person.bridged)
                var builder = TimelineBuilder(settings: settings)
                var entries: [TimelineEntry] = []
                for point in trace.sampled(every: seconds) { entries += builder.add(point) }
                entries += builder.finish()
                alone.0.judge(timeline: entries, against: person.reference, fixes: trace.fixes)
                let before = (alone.1.missed.count, alone.1.falseStays.count)
                alone.1.judge(timeline: entries, against: person.bridged, fixes: trace.fixes)
                if misses {
                    let points = trace.sampled(every: seconds)
                    for stay in alone.1.missed.dropFirst(before.0) {
                        report("missed", trace.person, stay, entries: entries, points: points)
                    }
                    for stay in alone.1.falseStays.dropFirst(before.1) {
                        report("false", trace.person, stay, entries: entries, points: points)
                    }
                }
            }
            print(row(seconds, "peer (\(peer.library)) on the same points", points, own))
            print(row(seconds, "TimelineBuilder alone (no server)", points, alone))
            for path in paths where !builderOnly {
                let started = ContinuousClock.now
                let result = await onOwnThread { () -> Result<(RealTraceScore, RealTraceScore), any Error> in
                    Result {
                        var score = (RealTraceScore(), RealTraceScore())
                        for trace in traces {
                            guard let person = peer.users[trace.person] else { continue }
                            let timeline = try feed.run(
                                trace.sampled(every: seconds), path: path,
                                device: "real-\(seconds)-\(path.rawValue)-\(trace.person)")
                            score.0.judge(timeline: timeline, against: person.reference, fixes: trace.fixes)
                            score.1.judge(timeline: timeline, against: person.bridged, fixes: trace.fixes)
                        }
                        return score
                    }
                }
                let score = try result.get()
                print(row(seconds, path.rawValue, points, score))
                FileHandle.standardError.write(
                    Data("\(seconds) s \(path.rawValue): \(ContinuousClock.now - started)\n".utf8))
            }
        }
    }

    /// A miss on standard error: the stay, the timeline's entries around it, and the cut points.
    static func report(
        _ kind: String, _ person: String, _ stay: PeerStays.Stay, entries: [TimelineEntry], points: [SampleValues]
    ) {
        func clock(_ t: Int64) -> String { Instant(milliseconds: t).iso8601 }
        var text =
            "\(kind) \(person) \(clock(stay.start)) – \(clock(stay.end)) (\((stay.end - stay.start) / 60_000) min) "
            + "at \(stay.lat),\(stay.lon)\n"
        let from = stay.start - 1_800_000
        let to = stay.end + 1_800_000
        for entry in entries where entry.end.milliseconds >= from && entry.start.milliseconds <= to {
            text += "  \(entry.kindName) \(clock(entry.start.milliseconds)) – \(clock(entry.end.milliseconds))\n"
        }
        for point in points where point.time.milliseconds >= from && point.time.milliseconds <= to {
            let metres = Haversine.distance(
                latitude1: point.latitude, longitude1: point.longitude, latitude2: stay.lat, longitude2: stay.lon)
            text += "    \(clock(point.time.milliseconds)) \(Int(metres)) m\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// A table row: the stays against the reference, then against the bridged one; trips once.
    static func row(_ seconds: Int64, _ name: String, _ points: Int, _ scores: (RealTraceScore, RealTraceScore))
        -> String
    {
        let (score, bridged) = scores
        func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
        let trips = score.tripErrors
        return "| \(seconds) s | \(name) | \(points) | \(score.reference) | \(score.found) | \(score.matched) "
            + "| \(format(score.precision)) | \(format(score.recall)) | \(bridged.reference) | \(bridged.matched) "
            + "| \(format(bridged.precision)) | \(format(bridged.recall)) | \(score.inferred) "
            + "| \(format(score.startErrors.median, 0)) | \(format(score.endErrors.median, 0)) | \(trips.count) "
            + "| \(trips.isEmpty ? "—" : format(trips.map(abs).median * 100, 1) + " %") "
            + "| \(trips.isEmpty ? "—" : format(trips.median * 100, 1) + " %") |"
    }
}

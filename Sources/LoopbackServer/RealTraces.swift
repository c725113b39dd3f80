package import BackgroundCore
package import Foundation
import LocationLog
package import TrackGeometry
import TrackServer

/// One person's full-rate fixes from a real GPS collection, time-ordered, one per instant.
package struct RealTrace: Sendable {
    package var person: String
    package var fixes: [SampleValues]

    package init(person: String, fixes: [SampleValues]) {
        self.person = person
        self.fixes = fixes
    }

    /// The points a phone sampling every `seconds` would send: the first fix, then each fix at
    /// least `seconds` after the last one kept (scripts/peer-stays.py cuts the peer's the same way).
    package func sampled(every seconds: Int64) -> [SampleValues] {
        var kept: [SampleValues] = []
        for fix in fixes where kept.last.map({ fix.time.milliseconds - $0.time.milliseconds >= seconds * 1000 }) ?? true
        { kept.append(fix) }
        return kept
    }

    /// Reads a GeoLife-layout folder: a folder per person (`NNN/Trajectory/*.plt`, or under `Data/`,
    /// as Microsoft Research's GeoLife 1.3 ships), each file read by the `.plt` importer's decoder.
    package static func geoLife(_ directory: URL) throws -> [RealTrace] {
        let files = FileManager.default
        var root = directory
        if files.fileExists(atPath: directory.appendingPathComponent("Data").path) {
            root = directory.appendingPathComponent("Data")
        }
        let people = try files.contentsOfDirectory(atPath: root.path).sorted().filter {
            files.fileExists(atPath: root.appendingPathComponent("\($0)/Trajectory").path)
        }
        guard !people.isEmpty else {
            throw EvaluationError(
                "\(directory.path) holds no NNN/Trajectory/*.plt folders (GeoLife's layout); see "
                    + "docs/timeline-evaluation.md for where to get the traces")
        }
        return try people.map { person in
            let folder = root.appendingPathComponent("\(person)/Trajectory")
            var fixes: [SampleValues] = []
            for name in try files.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".plt") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                for sample in GeoLifePLTFormat.samples(in: Array(data)) {
                    fixes.append(
                        SampleValues(time: sample.time, latitude: sample.latitude, longitude: sample.longitude))
                }
            }
            fixes.sort { $0.time.milliseconds < $1.time.milliseconds }
            var unique: [SampleValues] = []
            for fix in fixes where unique.last?.time.milliseconds != fix.time.milliseconds { unique.append(fix) }
            return RealTrace(person: person, fixes: unique)
        }
    }
}

/// The peer's stays for each person (scripts/peer-stays.py's output).
package struct PeerStays: Decodable, Sendable {
    package struct Stay: Decodable, Sendable, Hashable {
        package var start: Int64
        package var end: Int64
        package var lat: Double
        package var lon: Double

        package init(start: Int64, end: Int64, lat: Double, lon: Double) {
            self.start = start
            self.end = end
            self.lat = lat
            self.lon = lon
        }
    }

    package struct Person: Decodable, Sendable {
        /// On the full-rate fixes: the truth.
        package var reference: [Stay]
        /// On the full-rate fixes, bridging silences.
        package var bridged: [Stay]
        package var sub120: [Stay]
        package var sub180: [Stay]
        package var sub120_bridged: [Stay]
        package var sub180_bridged: [Stay]

        /// The peer's own stays on the points cut to `seconds`.
        package func sampled(_ seconds: Int64, bridged: Bool) -> [Stay] {
            switch (seconds, bridged) {
            case (120, false): sub120
            case (120, true): sub120_bridged
            case (180, false): sub180
            default: sub180_bridged
            }
        }
    }

    package var library: String
    package var method: String
    package var users: [String: Person]
}

/// How detected stays compare with a reference (issue 38): matched one to one when they overlap
/// by at least half the shorter of the two and their centres are within 200 m; the start and end
/// errors of matched pairs; and each trip's distance against the full-rate path over its time.
package struct RealTraceScore: Sendable {
    package var reference = 0
    package var found = 0
    package var matched = 0
    package var inferred = 0
    package var startErrors: [Double] = []
    package var endErrors: [Double] = []
    /// (detected - full-rate path) / full-rate path, for each judged trip.
    package var tripErrors: [Double] = []
    /// The reference stays no detected stay matched, and the detected stays that matched none.
    package var missed: [PeerStays.Stay] = []
    package var falseStays: [PeerStays.Stay] = []

    package init() {}

    package static let centreLimit = 200.0

    package var precision: Double { found == 0 ? 1 : Double(matched) / Double(found) }
    package var recall: Double { reference == 0 ? 1 : Double(matched) / Double(reference) }

    package mutating func merge(_ other: RealTraceScore) {
        reference += other.reference
        found += other.found
        matched += other.matched
        inferred += other.inferred
        startErrors += other.startErrors
        endErrors += other.endErrors
        tripErrors += other.tripErrors
        missed += other.missed
        falseStays += other.falseStays
    }

    /// Scores detected stays against the reference's.
    package mutating func judge(stays: [PeerStays.Stay], against truth: [PeerStays.Stay]) {
        reference += truth.count
        found += stays.count
        // Every pair that may match, greatest overlap first: one to one, so a long stay is given
        // to the reference stay it overlaps most, not the first one it touches.
        var pairs: [(found: Int, expected: Int, overlap: Int64)] = []
        for (index, expected) in truth.enumerated() {
            for (candidate, stay) in stays.enumerated() {
                let overlap = min(stay.end, expected.end) - max(stay.start, expected.start)
                let shorter = min(stay.end - stay.start, expected.end - expected.start)
                let apart = Haversine.distance(
                    latitude1: stay.lat, longitude1: stay.lon, latitude2: expected.lat, longitude2: expected.lon)
                if overlap > 0, overlap * 2 >= shorter, apart <= Self.centreLimit {
                    pairs.append((candidate, index, overlap))
                }
            }
        }
        var taken = Set<Int>()
        var matchedTruth = Set<Int>()
        for pair in pairs.sorted(by: { $0.overlap > $1.overlap })
        where !taken.contains(pair.found) && !matchedTruth.contains(pair.expected) {
            taken.insert(pair.found)
            matchedTruth.insert(pair.expected)
            matched += 1
            startErrors.append(Double(abs(stays[pair.found].start - truth[pair.expected].start)) / 1000)
            endErrors.append(Double(abs(stays[pair.found].end - truth[pair.expected].end)) / 1000)
        }
        missed += truth.indices.filter { !matchedTruth.contains($0) }.map { truth[$0] }
        falseStays += stays.indices.filter { !taken.contains($0) }.map { stays[$0] }
    }

    /// Scores a timeline's stays and trips: stays against `truth`, trips against the path of the
    /// full-rate `fixes` over each trip's time (only trips whose time the fixes cover without a
    /// silence of more than 5 minutes, and at least 200 m long: the rest has no known path).
    package mutating func judge(timeline: [TimelineEntry], against truth: [PeerStays.Stay], fixes: [SampleValues]) {
        let stays = timeline.compactMap { entry -> PeerStays.Stay? in
            guard case .stay(let stay) = entry else { return nil }
            return PeerStays.Stay(
                start: stay.start.milliseconds, end: stay.end.milliseconds, lat: stay.latitude, lon: stay.longitude)
        }
        inferred += timeline.count { if case .stay(let stay) = $0 { stay.inferred } else { false } }
        judge(stays: stays, against: truth)
        for case .trip(let trip) in timeline {
            guard let path = Self.path(of: fixes, from: trip.start.milliseconds, to: trip.end.milliseconds),
                path >= 200
            else { continue }
            tripErrors.append((trip.distance - path) / path)
        }
    }

    /// The length of the full-rate path between two instants, counting a fix only once it is
    /// 10 m from the last one counted (a resting receiver's jitter is no path); nil when the fixes
    /// do not cover the span (a silence over 5 minutes inside it, or none near either end).
    static func path(of fixes: [SampleValues], from: Int64, to: Int64) -> Double? {
        var low = 0
        var high = fixes.count
        while low < high {
            let middle = (low + high) / 2
            if fixes[middle].time.milliseconds < from { low = middle + 1 } else { high = middle }
        }
        guard low < fixes.count, fixes[low].time.milliseconds - from <= 300_000 else { return nil }
        var counted = fixes[low]
        var previous = fixes[low]
        var metres = 0.0
        var index = low + 1
        while index < fixes.count, fixes[index].time.milliseconds <= to {
            let fix = fixes[index]
            guard fix.time.milliseconds - previous.time.milliseconds <= 300_000 else { return nil }
            let step = Haversine.distance(
                latitude1: fix.latitude, longitude1: fix.longitude, latitude2: counted.latitude,
                longitude2: counted.longitude)
            if step >= 10 {
                metres += step
                counted = fix
            }
            previous = fix
            index += 1
        }
        return to - previous.time.milliseconds <= 300_000 ? metres : nil
    }
}

extension Array where Element == Double {
    /// The median (0 for none).
    package var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}

import Foundation
import LocationLog

/// SplitMix64: a seeded generator so every run sends the same hostile bodies.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One generated request against an ingest route.
struct HostileRequest {
    enum Route: String, CaseIterable { case native, overland, owntracks, osmandJSON, osmandQuery }
    var route: Route
    var kind: String
    var query: String = ""
    var body: [UInt8]
    var gzip = false
}

/// Generates malformed bodies from the protocol fixtures: wrong types, NaN/Infinity, out-of-range
/// coordinates, far-future and pre-1970 times, duplicate ids, deep nesting, invalid UTF-8,
/// truncation and byte flips, corrupt gzip.
struct HostileBodies {
    var random: SeededGenerator

    static let fields: [HostileRequest.Route: [String]] = [
        .native: [
            "id", "seq", "t", "lat", "lon", "acc", "alt", "speed", "course", "battery", "charging", "trigger", "state",
            "samples", "batch", "device",
        ],
        .overland: [
            "coordinates", "timestamp", "speed", "course", "locations", "properties", "geometry", "battery_level",
            "horizontal_accuracy", "current", "trip",
        ],
        .owntracks: ["lat", "lon", "tst", "vel", "batt", "bs", "_type", "acc", "cog", "t", "alt"],
        .osmandJSON: [
            "latitude", "longitude", "timestamp", "coords", "location", "device_id", "level", "speed", "heading",
        ],
    ]

    static let values = [
        "\"str\"", "true", "null", "[]", "{}", "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "91.5", "-181",
        "1e300", "-1", "99999999999999999999", "4102444800000", "-86400000", "0", "\"1969-01-01T00:00:00Z\"",
        "\"9999-12-31T23:59:59Z\"", "1.5e308", "\"\\u0000\"", "[[[[1]]]]", "{\"a\":1}", "-0.0", "5e-324",
        "253402300800", "-62135596800", "\"\"",
    ]

    static let queryValues = [
        "NaN", "inf", "-inf", "1e999", "%FF%FE", "-91", "181", "99999999999999999999", "4102444800", "-1", "",
        "abc", "2024-13-45 99:99:99", "1969-12-31T23:59:59Z", "%00", "0", "1e308", "%C3%28",
    ]

    static func base(_ route: HostileRequest.Route) -> String {
        switch route {
        case .native: Fixtures.nativeBatch
        case .overland: Fixtures.overland
        case .owntracks: Fixtures.ownTracksLocation
        case .osmandJSON: Fixtures.osmAndJSON
        case .osmandQuery: Fixtures.osmAndQuery
        }
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    /// A fresh id from the seeded generator, so runs repeat but requests never share sample ids.
    mutating func freshID() -> String {
        let value = (UInt128(random.next()) << 64) | UInt128(random.next())
        let hex = String(value, radix: 16)
        let digits = String(repeating: "0", count: 32 - hex.count) + hex
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(digits.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// The route's fixture with fresh sample ids (native) and a time shifted by up to a day
    /// (others, whose samples are keyed by time and position): a partial write of one request can
    /// never be hidden as a "duplicate" of an earlier request's rows.
    mutating func freshBase(_ route: HostileRequest.Route) -> String {
        var text = Self.base(route)
        if route == .native {
            for suffix in 1...4 {
                text = text.replacingOccurrences(of: "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e0\(suffix)", with: freshID())
            }
        } else {
            let shift = Int.random(in: 1...86_399, using: &random)
            text = text.replacingOccurrences(of: "1732240000", with: String(1_732_240_000 - shift))
            text = text.replacingOccurrences(of: "2024-11-22T02:", with: "2024-11-21T\(10 + shift % 12):")
        }
        return text
    }

    mutating func next() -> HostileRequest {
        let route = pick(HostileRequest.Route.allCases)
        if route == .osmandQuery { return query() }
        let text = freshBase(route)
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3:
            var mutated = text
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                mutated = Self.replaceValue(in: mutated, key: pick(Self.fields[route] ?? []), with: pick(Self.values))
            }
            return HostileRequest(route: route, kind: "wrong-type/range", body: Array(mutated.utf8))
        case 4:
            // Two samples of one batch with the same (fresh) id.
            let native = freshBase(.native)
            let first = native.range(of: #""id": ""#).map { native[$0.upperBound...].prefix(36) } ?? ""
            let duplicated = Self.replaceValue(in: native, key: "id", with: "\"\(first)\"", occurrence: 1)
            return HostileRequest(route: .native, kind: "duplicate-ids", body: Array(duplicated.utf8))
        case 5:
            let depth = Int.random(in: 33...20_000, using: &random)
            let open = pick(["[", "{\"a\":"])
            let body = String(repeating: open, count: depth)
            return HostileRequest(route: route, kind: "deep-nesting", body: Array(body.utf8))
        case 6:
            var bytes = Array(text.utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.insert(pick([0xFF, 0xFE, 0xC3, 0x80, 0xED, 0xA0, 0xF8]), at: at)
            }
            return HostileRequest(route: route, kind: "invalid-utf8", body: bytes)
        case 7:
            let bytes = Array(text.utf8)
            let cut = Int.random(in: 0..<bytes.count, using: &random)
            return HostileRequest(route: route, kind: "truncated", body: Array(bytes[..<cut]))
        case 8:
            var bytes = Array(text.utf8)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            return HostileRequest(route: route, kind: "byte-flips", body: bytes)
        default:
            var zipped = (try? Array(Gzip.compress(Data(text.utf8)))) ?? []
            if !zipped.isEmpty {
                zipped[Int.random(in: 10..<zipped.count, using: &random)] ^= 0x5A
            }
            return HostileRequest(route: route, kind: "corrupt-gzip", body: zipped, gzip: true)
        }
    }

    mutating func query() -> HostileRequest {
        var parts = Fixtures.osmAndQuery.split(separator: "&").map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = Int.random(in: 0..<parts.count, using: &random)
            let name = parts[index].split(separator: "=").first.map(String.init) ?? "lat"
            guard name != "token", name != "id" else { continue }
            parts[index] = "\(name)=\(pick(Self.queryValues))"
        }
        return HostileRequest(route: .osmandQuery, kind: "query", query: parts.joined(separator: "&"), body: [])
    }

    /// Replaces the value after `"key":` (the `occurrence`-th, or a random one) up to the next `,`/`}`/`]`.
    static func replaceValue(in text: String, key: String, with value: String, occurrence: Int? = nil) -> String {
        let needle = "\"\(key)\":"
        var ranges: [Range<String.Index>] = []
        var searchStart = text.startIndex
        while let range = text.range(of: needle, range: searchStart..<text.endIndex) {
            ranges.append(range)
            searchStart = range.upperBound
        }
        guard !ranges.isEmpty else { return text }
        let chosen = ranges[min(occurrence ?? (key.count * 7 % ranges.count), ranges.count - 1)]
        var end = chosen.upperBound
        var depth = 0
        var inString = false
        while end < text.endIndex {
            let character = text[end]
            if inString {
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                if depth == 0 { break }
                depth -= 1
            } else if character == ",", depth == 0 {
                break
            }
            end = text.index(after: end)
        }
        return text.replacingCharacters(in: chosen.upperBound..<end, with: value)
    }
}

import BackgroundCore
import Foundation
import LocationLog

/// Reads GeoLife's `.plt` trajectories (Microsoft Research's GPS trajectory collection): six
/// header lines, then `latitude,longitude,0,altitude in feet,days since 1899-12-30,date,time` a
/// line, times in UTC, altitude -777 when unknown.
package struct GeoLifePLTFormat: LineFormat {
    static let name = "GeoLife .plt"
    static let notALine = "not a .plt line"
    static let headerLines = 6
    static let unknownAltitude = -777.0
    static let metresPerFoot = 0.3048

    mutating func decode(_ line: ArraySlice<UInt8>, number: Int) -> Result<[TrackSample], SampleProblem>? {
        guard number > Self.headerLines else { return nil }
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        guard fields.count >= 7 else {
            return .failure(
                SampleProblem(
                    message: "has \(fields.count) fields, not the 7 of a .plt line "
                        + "(latitude,longitude,0,altitude,days,date,time)"))
        }
        guard let latitude = Double(fields[0]), let longitude = Double(fields[1]) else {
            return .failure(
                SampleProblem(
                    message: "latitude \"\(fields[0].prefix(40))\" or longitude \"\(fields[1].prefix(40))\" "
                        + "is not a number"))
        }
        guard let time = Instant(iso8601: fields[5] + "T" + fields[6] + "Z") else {
            return .failure(
                SampleProblem(
                    message: "date \"\(fields[5].prefix(20))\" and time \"\(fields[6].prefix(20))\" are not "
                        + "YYYY-MM-DD and HH:MM:SS"))
        }
        let feet = Double(fields[3])
        let altitude = feet.flatMap { $0 == Self.unknownAltitude || !$0.isFinite ? nil : $0 * Self.metresPerFoot }
        return .success([.imported(time: time, latitude: latitude, longitude: longitude, altitude: altitude)])
    }
}

extension GeoLifePLTFormat {
    /// The points of a whole `.plt` file, its header and any line that is no point left out: the
    /// real-trace evaluation's reader (`bgtrack-bench timeline --real`).
    package static func samples(in bytes: [UInt8]) -> [TrackSample] {
        var format = GeoLifePLTFormat()
        var samples: [TrackSample] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if case .success(let decoded) = format.decode(trimmed, number: index + 1) { samples += decoded }
        }
        return samples
    }
}

import BackgroundCore
import LocationLog

/// Takeout's legacy `Records.json`: `{"locations":[{"latitudeE7":…,"longitudeE7":…,"accuracy":…,
/// "timestamp":"2019-…Z"}, …]}` (older files have `"timestampMs":"1546300800000"` instead).
enum TakeoutRecords {
    static func points(_ value: JSONValue) throws(SampleProblem) -> [TrackSample] {
        let fields = try FieldReader(value, label: "the location")
        let latitude = try coordinate(fields, "latitudeE7")
        let longitude = try coordinate(fields, "longitudeE7")
        let time: Instant
        if let text = try fields.string("timestamp") {
            guard let parsed = Instant(iso8601: text) else {
                throw fields.problem("timestamp", "\"\(text.prefix(40))\" is not an ISO-8601 time")
            }
            time = parsed
        } else {
            time = try milliseconds(fields)
        }
        return [
            .imported(
                time: time, latitude: latitude, longitude: longitude, accuracy: try fields.number("accuracy"),
                altitude: try fields.number("altitude"), speed: try fields.number("velocity"),
                course: try fields.number("heading"))
        ]
    }

    /// Degrees from an E7 integer. Old exports wrote some values as unsigned 32-bit: anything past
    /// ±180° is read back as the signed value Google meant.
    private static func coordinate(_ fields: FieldReader, _ name: String) throws(SampleProblem) -> Double {
        var e7 = try fields.requiredNumber(name)
        if e7 > 1_800_000_000 { e7 -= 4_294_967_296 }
        return e7 / 1e7
    }

    private static func milliseconds(_ fields: FieldReader) throws(SampleProblem) -> Instant {
        let number: Double?
        switch fields.object["timestampMs"] {
        case .string(let text): number = Double(text)
        case .number(let value): number = value
        case nil, .null: throw fields.problem("timestamp", "is required and missing (nor is there \"timestampMs\")")
        case .some(let other): throw fields.problem("timestampMs", "must be a string of digits, got \(other.typeName)")
        }
        guard let number, number.isFinite, abs(number) < 1e15 else {
            throw fields.problem("timestampMs", "is not a number of milliseconds")
        }
        return Instant(milliseconds: Int64(number))
    }
}

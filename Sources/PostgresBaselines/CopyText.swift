import BackgroundCore
package import TrackServer

/// Rows for `COPY … FROM STDIN (FORMAT text)`, the encoding PostgresNIO's `copyFrom` sends.
///
/// Fields are separated by a tab and rows end with a newline; `\N` is NULL. In a text field a
/// backslash, tab, newline or carriage return would be read as syntax, so each is written as its
/// backslash escape; every other character goes as it is (PostgreSQL rejects NUL in `text`
/// whichever way it arrives, through COPY or a bound `INSERT`).
package enum CopyText {
    /// The columns of `sample` a row holds, in the store's `INSERT` order.
    package static let sampleColumns = [
        "device_id", "key", "sample_id", "seq", "t", "lat", "lon", "acc", "alt", "speed", "course", "battery",
        "charging", "trigger", "state", "source", "received_at",
    ]

    /// One field, escaped; `nil` is `\N`.
    package static func field(_ value: String?) -> String {
        guard let value else { return "\\N" }
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// One row: the fields escaped, tab-separated, newline-terminated.
    package static func row(_ fields: [String?]) -> String {
        fields.map(field).joined(separator: "\t") + "\n"
    }

    /// A `sample` row (``sampleColumns``) as the store writes it: the same values its `INSERT` binds.
    ///
    /// Numbers use Swift's shortest round-tripping form, which `float8in` reads back exactly.
    package static func sampleRow(_ sample: TrackSample, deviceID: Int64, receivedAt: Int64) -> String {
        func number(_ value: Double?) -> String? { value.map { String($0) } }
        var fields: [String?] = [String(deviceID), sample.key, sample.id, sample.seq.map { String($0) }]
        fields.append(String(sample.time.milliseconds))
        fields += [number(sample.latitude), number(sample.longitude), number(sample.accuracy)]
        fields += [number(sample.altitude), number(sample.speed), number(sample.course), number(sample.battery)]
        fields += [sample.charging.map { $0 ? "t" : "f" }, sample.trigger, sample.state, sample.source.rawValue]
        fields.append(String(receivedAt))
        return row(fields)
    }
}

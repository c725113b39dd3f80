/// Why a sample is not acceptable as data, with a message naming the field and the value.
///
/// Used by the server to fill `rejected[].reason` and by the store to refuse bad rows. The
/// phone's sampling machine rejects bad fixes earlier (`FixRejection`); this is the last check
/// on data that crossed a boundary (the wire, a file).
public struct SampleValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Sample {
    /// Checks ranges and finiteness of every field.
    ///
    /// - Throws: `SampleValidationError` naming the first bad field, its value and the allowed range.
    public func validate() throws(SampleValidationError) {
        try Self.checkPosition(latitude: latitude, longitude: longitude)
        if seq < 1 { throw SampleValidationError("seq \(seq) must be 1 or more") }
        try Self.check("acc", accuracy, "a positive radius in metres") { $0 > 0 }
        try Self.check("alt", altitude, "a finite number of metres") { _ in true }
        try Self.check("speed", speed, "0 or more metres per second") { $0 >= 0 }
        try Self.check("course", course, "0…360 degrees") { (0...360).contains($0) }
        try Self.check("battery", battery, "0…1") { (0...1).contains($0) }
    }

    /// Checks a position in degrees: finite, latitude -90…90, longitude -180…180.
    public static func checkPosition(latitude: Double, longitude: Double) throws(SampleValidationError) {
        guard latitude.isFinite else { throw SampleValidationError("latitude \(latitude) is not a finite number") }
        guard longitude.isFinite else { throw SampleValidationError("longitude \(longitude) is not a finite number") }
        guard (-90...90).contains(latitude) else {
            throw SampleValidationError("latitude \(latitude) is outside -90…90")
        }
        guard (-180...180).contains(longitude) else {
            throw SampleValidationError("longitude \(longitude) is outside -180…180")
        }
        guard latitude != 0 || longitude != 0 else {
            throw SampleValidationError("position 0,0 is a placeholder, not a fix")
        }
    }

    private static func check(
        _ name: String, _ value: Double?, _ allowed: String, _ rule: (Double) -> Bool
    ) throws(SampleValidationError) {
        guard let value else { return }
        guard value.isFinite, rule(value) else {
            throw SampleValidationError("\(name) \(value) is outside the allowed range: \(allowed)")
        }
    }
}

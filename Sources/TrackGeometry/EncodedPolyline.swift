public import BackgroundCore

/// Google's encoded polyline algorithm format (precision 5 by default; 6 for OSRM/Valhalla style).
///
/// ```swift
/// EncodedPolyline.encode([(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)])
/// // "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
/// ```
public enum EncodedPolyline {
    /// Encodes latitude/longitude pairs in degrees.
    public static func encode(_ coordinates: [(latitude: Double, longitude: Double)], precision: Int = 5) -> String {
        var output = ""
        output.reserveCapacity(coordinates.count * 8)
        var encoder = Encoder(precision: precision)
        for coordinate in coordinates {
            encoder.append(latitude: coordinate.latitude, longitude: coordinate.longitude, to: &output)
        }
        return output
    }

    /// Encodes a line a point at a time (each point is a delta from the one before), so a long
    /// line can be written out in pieces: the pieces joined are ``encode(_:precision:)``'s text.
    public struct Encoder: Sendable {
        private let factor: Double
        private var previousLatitude = 0
        private var previousLongitude = 0

        public init(precision: Int = 5) { factor = EncodedPolyline.pow10(precision) }

        /// Appends the next point of the line to `output`.
        public mutating func append(latitude: Double, longitude: Double, to output: inout String) {
            let latitudeValue = Int((latitude * factor).rounded())
            let longitudeValue = Int((longitude * factor).rounded())
            EncodedPolyline.append(latitudeValue - previousLatitude, to: &output)
            EncodedPolyline.append(longitudeValue - previousLongitude, to: &output)
            previousLatitude = latitudeValue
            previousLongitude = longitudeValue
        }
    }

    /// Encodes track points.
    public static func encode(_ points: [SampleValues], precision: Int = 5) -> String {
        encode(points.map { (latitude: $0.latitude, longitude: $0.longitude) }, precision: precision)
    }

    /// Decodes a polyline; `nil` when the text is not a valid encoding.
    public static func decode(_ text: String, precision: Int = 5) -> [(latitude: Double, longitude: Double)]? {
        let factor = pow10(precision)
        var result: [(latitude: Double, longitude: Double)] = []
        var bytes = text.utf8.makeIterator()
        var latitude = 0
        var longitude = 0
        while true {
            guard let deltaLatitude = nextValue(&bytes) else { break }
            guard let deltaLatitude, let deltaLongitude = nextValue(&bytes) ?? nil else { return nil }
            // Each delta may be up to 2^59; hostile text could otherwise overflow (a trap) the sums.
            let (nextLatitude, latitudeOverflow) = latitude.addingReportingOverflow(deltaLatitude)
            let (nextLongitude, longitudeOverflow) = longitude.addingReportingOverflow(deltaLongitude)
            guard !latitudeOverflow, !longitudeOverflow else { return nil }
            latitude = nextLatitude
            longitude = nextLongitude
            result.append((Double(latitude) / factor, Double(longitude) / factor))
        }
        return result
    }

    fileprivate static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    fileprivate static func append(_ value: Int, to output: inout String) {
        var rest = value < 0 ? ~(value << 1) : value << 1
        while rest >= 0x20 {
            output.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (rest & 0x1f)) + 63)))
            rest >>= 5
        }
        output.unicodeScalars.append(Unicode.Scalar(UInt8(rest + 63)))
    }

    /// `nil` at the end of input, `.some(nil)` on malformed input, else the next value.
    private static func nextValue(_ bytes: inout String.UTF8View.Iterator) -> Int?? {
        var result = 0
        var shift = 0
        var sawAny = false
        while let byte = bytes.next() {
            sawAny = true
            guard byte >= 63, byte < 127, shift < 60 else { return .some(nil) }
            let chunk = Int(byte) - 63
            result |= (chunk & 0x1f) << shift
            shift += 5
            if chunk < 0x20 {
                return .some((result & 1) != 0 ? ~(result >> 1) : result >> 1)
            }
        }
        return sawAny ? .some(nil) : nil
    }
}

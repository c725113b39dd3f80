// The C library's sin, cos and asin: BackgroundCore imports nothing but the standard library and
// the platform's libm (no Foundation), so it builds anywhere Swift does.
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Great-circle distances on a spherical Earth (mean radius 6,371,008.8 m).
///
/// The sphere is off by up to 0.5 % against the WGS-84 ellipsoid, far below phone GPS accuracy.
public enum Haversine {
    /// Mean Earth radius in metres (IUGG).
    public static let earthRadius = 6_371_008.8

    /// Distance in metres between two positions given in degrees.
    public static func distance(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    ) -> Double {
        let phi1 = latitude1 * .pi / 180
        let phi2 = latitude2 * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (longitude2 - longitude1) * .pi / 180
        let a =
            sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}

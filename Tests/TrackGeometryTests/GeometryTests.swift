import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackGeometry

@Suite struct GeometryTests {
    func point(_ seconds: Int64, _ latitude: Double, _ longitude: Double) -> SampleValues {
        SampleValues(time: Instant(milliseconds: seconds * 1000), latitude: latitude, longitude: longitude)
    }

    @Test func haversineMatchesKnownDistances() {
        // Paris (48.8566, 2.3522) to London (51.5074, -0.1278): about 343.5 km.
        let d = Haversine.distance(latitude1: 48.8566, longitude1: 2.3522, latitude2: 51.5074, longitude2: -0.1278)
        #expect(abs(d - 343_560) < 500)
        // One degree of latitude is about 111.2 km.
        #expect(abs(Haversine.distance(latitude1: 0, longitude1: 10, latitude2: 1, longitude2: 10) - 111_195) < 5)
        #expect(Haversine.distance(latitude1: 10, longitude1: 10, latitude2: 10, longitude2: 10) == 0)
        // Across the antimeridian the short way round.
        #expect(Haversine.distance(latitude1: 0, longitude1: 179.9, latitude2: 0, longitude2: -179.9) < 23_000)
    }

    @Test func simplificationDropsPointsWithinToleranceOnly() {
        // A straight line north with 1 m of noise, then a 200 m corner east.
        var points: [SampleValues] = []
        for i in 0..<100 {
            let noise = (i % 2 == 0 ? 1.0 : -1.0) / 111_000 / 1.0
            points.append(point(Int64(i), 31.0 + Double(i) * 0.0001, 121.0 + noise))
        }
        points.append(point(100, 31.0 + 99 * 0.0001, 121.002))
        let simplified = Simplification.douglasPeucker(points, tolerance: 5)
        #expect(simplified.first == points.first)
        #expect(simplified.last == points.last)
        #expect(simplified.count == 3)
        let exact = Simplification.douglasPeucker(points, tolerance: 0.1)
        #expect(exact.count > 50)
        // Every dropped point lies within the tolerance of the simplified line (checked coarsely).
        #expect(Simplification.douglasPeucker([], tolerance: 5).isEmpty)
        #expect(Simplification.douglasPeucker(Array(points.prefix(2)), tolerance: 5).count == 2)
    }

    @Test func largeTracksSimplifyWithoutRecursion() {
        // A long, gently noisy straight walk: the stack depth would be the point count if recursive.
        let points = (0..<50_000).map { i in
            point(Int64(i), 31 + Double((i * 7919) % 13) * 1e-7, 121 + Double(i) * 0.00001)
        }
        let simplified = Simplification.douglasPeucker(points, tolerance: 10)
        #expect(simplified.count < points.count / 4)
    }

    @Test func gapsSplitTheTrack() {
        let points = [point(0, 1, 1), point(120, 1, 1.001), point(240, 1, 1.002), point(1000, 1, 1.003)]
        let gaps = Gaps.find(in: points, maximumGap: .seconds(360))
        #expect(gaps.count == 1)
        #expect(gaps[0].duration == .seconds(760))
        let segments = Gaps.segments(of: points, maximumGap: .seconds(360))
        #expect(segments.map(\.count) == [3, 1])
        #expect(Gaps.segments(of: [], maximumGap: .seconds(1)).isEmpty)
    }

    @Test func polylineMatchesGooglesExample() throws {
        let encoded = EncodedPolyline.encode([(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)])
        #expect(encoded == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let decoded = try #require(EncodedPolyline.decode(encoded))
        #expect(decoded.count == 3)
        #expect(abs(decoded[2].latitude - 43.252) < 1e-9 && abs(decoded[2].longitude + 126.453) < 1e-9)
        #expect(EncodedPolyline.decode("_p~iF~ps|U_") == nil)
        #expect(EncodedPolyline.decode("")?.isEmpty == true)
        // Forty deltas of -2^59 each: the running latitude would pass Int64.min (a trap before).
        #expect(EncodedPolyline.decode(String(repeating: "~~~~~~~~~~~^", count: 40)) == nil)
    }

    @Test func exportsCarryEveryPointAndBreakAtGaps() throws {
        var a = point(0, 31.2304, 121.4737)
        a.accuracy = 12.5
        a.altitude = 4
        let segments = [[a, point(120, 31.2305, 121.4738)], [point(2000, 31.2306, 121.4739)]]
        let geo = TrackExport.geoJSON(segments)
        let object = try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        #expect(features.count == 4)
        // The one-point segment is no LineString (RFC 7946 §3.1.4); it is one of the Point features.
        #expect(geo.contains(#""MultiLineString","coordinates":[[[121.4737,31.2304],[121.4738,31.2305]]]}"#))
        #expect(geo.contains(#""time":"1970-01-01T00:02:00.000Z""#))
        #expect(geo.contains(#""accuracy":12.5"#))

        let gpx = TrackExport.gpx(segments, name: "a<b & c")
        #expect(gpx.contains(#"<gpx version="1.1""#))
        #expect(gpx.components(separatedBy: "<trkseg>").count == 3)
        #expect(
            gpx.contains(
                #"<trkpt lat="31.2304" lon="121.4737"><ele>4</ele><time>1970-01-01T00:00:00.000Z</time>"#
                    + "<extensions><bgt:local_time>1970-01-01T00:00:00.000+00:00</bgt:local_time>"
                    + "<bgt:time_zone>UTC</bgt:time_zone></extensions></trkpt>"))
        #expect(gpx.contains("a&lt;b &amp; c"))

        let csv = TrackExport.csv(segments).split(separator: "\n")
        #expect(csv.count == 4)
        #expect(
            csv[0] == "time,t_ms,segment,lat,lon,accuracy,altitude,speed,course,local_time,time_zone,vertical_accuracy")
        #expect(csv[1] == "1970-01-01T00:00:00.000Z,0,0,31.2304,121.4737,12.5,4,,,1970-01-01T00:00:00.000+00:00,UTC,")
        #expect(csv[3].hasPrefix("1970-01-01T00:33:20.000Z,2000000,1,"))
    }

    /// Real GPX days often have one-point segments; none may become a one-point line.
    @Test func aOnePointSegmentIsAPointNeverALine() throws {
        let segments = [
            [point(0, 31.1, 121.1)], [point(900, 31.2, 121.2), point(1000, 31.3, 121.3)], [point(5000, 31.4, 121.4)],
        ]
        for includePoints in [false, true] {
            let geo = TrackExport.geoJSON(segments, includePoints: includePoints)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any])
            let features = try #require(object["features"] as? [[String: Any]])
            let geometries = features.compactMap { $0["geometry"] as? [String: Any] }
            for geometry in geometries where geometry["type"] as? String == "MultiLineString" {
                let lines = try #require(geometry["coordinates"] as? [[[Double]]])
                #expect(lines.count == 1 && lines.allSatisfy { $0.count >= 2 })
            }
            let points = geometries.filter { $0["type"] as? String == "Point" }.compactMap {
                $0["coordinates"] as? [Double]
            }
            #expect(points.contains([121.1, 31.1]) && points.contains([121.4, 31.4]))
            #expect(points.count == (includePoints ? 4 : 2))
        }
    }
}

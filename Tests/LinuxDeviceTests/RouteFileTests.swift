import BackgroundCore
import Foundation
import LinuxDevice
import LocationLog
import Testing
import TrackGeometry

@Suite final class RouteFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    var segments: [[SampleValues]] {
        [
            (0..<5).map { index in
                SampleValues(
                    time: Instant(milliseconds: 1_732_240_000_000 + Int64(index) * 120_000),
                    latitude: 31.2304 + Double(index) * 1e-3, longitude: 121.4737, accuracy: 5, altitude: 4)
            }
        ]
    }

    @Test func readsOurOwnGPXAndCSVExports() throws {
        let gpx = try RouteFile.read(path: write("a.gpx", Data(TrackExport.gpx(segments, name: "walk").utf8)))
        let csv = try RouteFile.read(path: write("a.csv", Data(TrackExport.csv(segments).utf8)))
        for points in [gpx, csv] {
            #expect(points.count == 5)
            #expect(points.map(\.time) == segments[0].map { Optional($0.time) })
            #expect(abs((points.last?.latitude ?? 0) - 31.2344) < 1e-9)
        }
        #expect(gpx.first?.altitude == 4)
    }

    @Test func readsHandWrittenFilesWithoutTimes() throws {
        let csv = try RouteFile.read(path: write("b.csv", Data("Latitude, Longitude\n31.1,121.1\n\n31.2,121.2\n".utf8)))
        #expect(csv.count == 2 && csv[0].time == nil)
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1"><rte><rtept lat='31.1' lon='121.1'/>
            <rtept lat="31.2" lon="121.2"></rtept></rte></gpx>
            """
        #expect(try RouteFile.read(path: write("b.gpx", Data(gpx.utf8))).count == 2)
    }

    /// A file with waypoints (places far away), a planned route and a recorded track: only the
    /// track is replayed, never the three strung together into jumps of kilometres.
    @Test func aMixedGPXFileReplaysItsTrackPointsOnly() throws {
        let gpx = """
            <gpx version="1.1"><wpt lat="48.85" lon="2.35"><name>Paris</name></wpt>
            <rte><rtept lat="40.0" lon="116.0"/><rtept lat="40.1" lon="116.1"/></rte>
            <trk><trkseg><trkpt lat="31.1" lon="121.1"><time>2024-11-22T01:00:00Z</time></trkpt>
            <trkpt lat="31.1001" lon="121.1001"><time>2024-11-22T01:02:00Z</time></trkpt></trkseg></trk>
            <wpt lat="-33.9" lon="151.2"/></gpx>
            """
        let points = try RouteFile.read(path: write("mixed.gpx", Data(gpx.utf8)))
        #expect(points.map(\.latitude) == [31.1, 31.1001])
        let routeOnly = """
            <gpx><wpt lat="48.85" lon="2.35"/><rte><rtept lat="40.0" lon="116.0"/><rtept lat="40.1" lon="116.1"/></rte></gpx>
            """
        #expect(try RouteFile.read(path: write("route.gpx", Data(routeOnly.utf8))).map(\.latitude) == [40.0, 40.1])
    }

    static let hostileFiles: [(name: String, content: [UInt8], message: String)] = [
        ("latin1.csv", Array("lat,lon,name\n31.1,121.1,Caf".utf8) + [0xE9, 0x0A], "not UTF-8: byte 0xE9"),
        ("utf16.csv", [0xFF, 0xFE, 0x6C, 0x00, 0x61, 0x00], "UTF-16"),
        ("binary.gpx", [0x3C, 0x67, 0x70, 0x78, 0x3E, 0x80, 0x81, 0xFE, 0x3E], "not UTF-8: byte 0x80"),
        ("noheader.csv", Array("31.1,121.1\n31.2,121.2\n".utf8), "must be a header"),
        ("words.csv", Array("lat,lon\nnorth,east\n".utf8), "line 2: lat and lon must be numbers"),
        ("island.csv", Array("lat,lon\n0,0\n1,1\n".utf8), "0,0"),
        ("range.gpx", Array(#"<gpx><trkpt lat="95" lon="1"/><trkpt lat="1" lon="1"/></gpx>"#.utf8), "latitude 95"),
        ("short.csv", Array("lat,lon\n1,1\n".utf8), "needs at least 2"),
        ("notgpx.gpx", Array("<html><body>hi</body></html>".utf8), "not GPX"),
        ("route.kml", Array("<kml/>".utf8), "unknown type"),
    ]

    @Test(arguments: Self.hostileFiles.indices)
    func hostileFilesAreRefusedWithAClearMessage(index: Int) throws {
        let (name, content, message) = Self.hostileFiles[index]
        let path = try write(name, Data(content))
        #expect {
            try RouteFile.read(path: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains(message) && text.contains(path)
        }
    }

    /// A 1 GB file (sparse: no disk used) is refused from its size, without reading it.
    @Test func oneGigabyteFileIsRefusedWithoutLoadingIt() throws {
        let path = directory.appendingPathComponent("huge.gpx").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("<gpx>".utf8)))
        #expect(truncate(path, 1 << 30) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try RouteFile.read(path: path)
        } throws: { error in
            "\(error)".contains("is 1024 MiB; routes up to 256 MiB")
        }
        // With the size limit lifted, the same 1 GB file is streamed in 64 KiB chunks and given up
        // after the first MiB without a record end: memory follows the records, not the file.
        #expect {
            try RouteFile.read(path: path, maximumBytes: 2 << 30)
        } throws: { error in
            "\(error)".contains("has a record over 1048576 bytes without a '>'")
        }
        let longLine = try write("oneline.gpx", Data(repeating: UInt8(ascii: "x"), count: 3 << 20))
        #expect {
            try RouteFile.read(path: longLine)
        } throws: { error in
            "\(error)".contains("without a '>'")
        }
    }

    /// Spreadsheet exports start with a UTF-8 byte-order mark and end lines with CRLF.
    @Test func readsCSVWithAByteOrderMarkAndCRLF() throws {
        let csv = try RouteFile.read(
            path: write(
                "excel.csv",
                Data(
                    [0xEF, 0xBB, 0xBF]
                        + Array("lat,lon,time\r\n31.1,121.1,1732240000\r\n31.2,121.2,1732240060\r\n".utf8))))
        #expect(csv.map(\.latitude) == [31.1, 31.2])
        #expect(
            csv.map(\.time) == [Instant(milliseconds: 1_732_240_000_000), Instant(milliseconds: 1_732_240_060_000)])
        let gpx = try RouteFile.read(
            path: write(
                "bom.gpx",
                Data([0xEF, 0xBB, 0xBF] + Array(#"<gpx><wpt lat="1" lon="1"/><wpt lat="2" lon="2"/></gpx>"#.utf8))))
        #expect(gpx.count == 2)
    }

    /// Times that are not numbers or lie far outside any calendar used to trap (`Int64(nan)`, an
    /// overflow in the player); they are refused with the line and the value.
    static let hostileTimes: [(content: String, message: String)] = [
        ("lat,lon,time\n31.1,121.1,nan\n31.2,121.2,2\n", "line 2: time \"nan\""),
        ("lat,lon,time\n31.1,121.1,1\n31.2,121.2,1e300\n", "line 3: time \"1e300\""),
        ("lat,lon,time\n31.1,121.1,-inf\n31.2,121.2,2\n", "line 2: time \"-inf\""),
        ("lat,lon,t_ms\n31.1,121.1,-9223372036854775807\n31.2,121.2,9223372036854775807\n", "line 2: time"),
        ("lat,lon,time\n31.1,121.1,yesterday\n31.2,121.2,2\n", "line 2: time \"yesterday\""),
    ]

    @Test(arguments: Self.hostileTimes.indices)
    func hostileTimesAreRefusedNotATrap(index: Int) throws {
        let (content, message) = Self.hostileTimes[index]
        let path = try write("times\(index).csv", Data(content.utf8))
        #expect {
            try RouteFile.read(path: path)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains(path)
        }
    }

    /// A GPX elevation that is not a finite number would make every replayed fix fail the
    /// sampling rules (nothing recorded, no word why at start); the file is refused instead.
    @Test func nonFiniteElevationIsRefused() throws {
        let gpx = #"<gpx><trkpt lat="1" lon="1"><ele>nan</ele></trkpt><trkpt lat="2" lon="2"/></gpx>"#
        let path = try write("ele.gpx", Data(gpx.utf8))
        #expect {
            try RouteFile.read(path: path)
        } throws: { error in
            "\(error)".contains("point 1: elevation nan")
        }
    }

    @Test func playerInterpolatesAndLoops() throws {
        let start = Instant(milliseconds: 1_000_000)
        let points = [
            RouteFile.RoutePoint(latitude: 31.0, longitude: 121.0, time: Instant(milliseconds: 0)),
            RouteFile.RoutePoint(latitude: 31.1, longitude: 121.0, time: Instant(milliseconds: 100_000)),
        ]
        let player = RoutePlayer(points: points, start: start)
        #expect(player.duration == .seconds(100))
        #expect(abs(player.fix(at: start + .seconds(50)).latitude - 31.05) < 1e-9)
        #expect(abs(player.fix(at: start + .seconds(150)).latitude - 31.05) < 1e-9)
        #expect((player.fix(at: start + .seconds(10)).speed ?? 0) > 100)
        let synthetic = RoutePlayer.synthetic(start: start)
        let a = synthetic.fix(at: start)
        let b = synthetic.fix(at: start + .seconds(100))
        let metres = Haversine.distance(
            latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        #expect(abs(metres - 140) < 5, "walking pace: \(metres) m in 100 s")
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TrackServer

/// The map pages with Leaflet served by the server itself, and the SVG fallback without it.
@Suite struct LeafletPageTests {
    /// A stand-in for Debian's `/usr/share/javascript/leaflet`: the two files and a marker image.
    static func fakeLeaflet() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("/* leaflet.js */".utf8).write(to: directory.appendingPathComponent("leaflet.js"))
        try Data("/* leaflet.css */".utf8).write(to: directory.appendingPathComponent("leaflet.css"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: directory.appendingPathComponent("images/marker-icon.png"))
        try Data("secret".utf8).write(to: directory.appendingPathComponent(".hidden.js"))
        return directory.path
    }

    func get(_ server: TestServer, _ uri: String) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        }
    }

    @Test func theMapPageUsesLeafletFromThisServerWhenItIsInstalled() async throws {
        let leaflet = try Self.fakeLeaflet()
        defer { try? FileManager.default.removeItem(atPath: leaflet) }
        let server = try await TestServer { $0.leafletDirectory = leaflet }
        let upload = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/batches", method: .post, headers: .bearer(server.phoneToken),
                body: ByteBuffer(text: Fixtures.nativeBatch))
        }
        #expect(upload.status == .ok)
        let page = try await get(server, "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)")
        #expect(page.status == .ok)
        #expect(page.text.contains("<script src=\"/static/leaflet/leaflet.js\"></script>"))
        // The drawing script is a file of this server (no inline script: issue 23's CSP).
        #expect(page.text.contains("<script src=\"/static/bgtrack/leaflet-map.js\"></script>"))
        #expect(try await get(server, "/static/bgtrack/leaflet-map.js").text.contains("L.map('map'"))
        #expect(!page.text.contains("libjs-leaflet"))  // no "install Leaflet" hint
        #expect(!page.text.contains("src=\"http") && !page.text.contains("href=\"http"))  // no CDN
        // Popups need each point's battery, trigger and app state.
        #expect(page.text.contains("\"details\":[[["))
        let index = try await get(server, "/?token=\(server.operatorToken)")
        #expect(index.text.contains("id=\"devices-map\"") && index.text.contains("\"name\":\"iphone-42\""))
    }

    /// Issue 37 item 4: the day's panels sit beside the map (below it on a phone), never over it;
    /// every Leaflet page places its labels clear of each other and says how to turn tiles on.
    /// (What the browser draws is checked by scripts/page-layout-check.py.)
    @Test func panelsSitBesideTheMapAndEveryMapPlacesItsLabels() async throws {
        let leaflet = try Self.fakeLeaflet()
        defer { try? FileManager.default.removeItem(atPath: leaflet) }
        let server = try await TestServer { $0.leafletDirectory = leaflet }
        let page = try await get(server, "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)")
        #expect(page.text.contains(#"<div id="main"><div id="map"></div><div id="panels"></div></div>"#))
        #expect(page.text.contains(#"<body class="day">"#) && page.text.contains("@media (max-width: 700px)"))
        #expect(!page.text.contains("position: fixed") && !page.text.contains("position: absolute; top: 54px"))
        for name in ["timeline.js", "leaflet-map.js"] {
            #expect(
                try await get(server, "/static/bgtrack/\(name)").text.contains("getElementById('panels')"), "\(name)")
        }
        for (name, call) in [
            ("leaflet-map.js", "bgtrackLayout(map, MAP.tileURL);"),
            ("range-map.js", "bgtrackLayout(map, MAP.tileURL);"),
            ("devices.js", "bgtrackLayout(map, TILES);"),
        ] {
            let script = try await get(server, "/static/bgtrack/\(name)").text
            #expect(script.contains("function bgtrackDeclutter(map)") && script.contains("--tile-url"), "\(name)")
            #expect(script.contains(call), "\(name) calls it")
        }
        let index = try await get(server, "/?token=\(server.operatorToken)")
        #expect(index.text.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
    }

    @Test func withoutLeafletThePlainMapSaysHowToGetTheInteractiveOne() async throws {
        let server = try await TestServer { $0.leafletDirectory = "/nonexistent/leaflet" }
        let page = try await get(server, "/devices/iphone-42?day=2024-11-22&token=\(server.operatorToken)")
        #expect(page.status == .ok)
        #expect(page.text.contains("apt-get install libjs-leaflet"))
        #expect(page.text.contains("<svg id=\"svg\""))
        #expect(!page.text.contains("/static/leaflet/"))
        let asset = try await get(server, "/static/leaflet/leaflet.js")
        #expect(asset.status == .notFound)
        #expect(asset.text.contains("libjs-leaflet"))
    }

    @Test func leafletFilesAreServedWithTheirTypes() async throws {
        let leaflet = try Self.fakeLeaflet()
        defer { try? FileManager.default.removeItem(atPath: leaflet) }
        let server = try await TestServer { $0.leafletDirectory = leaflet }
        let script = try await get(server, "/static/leaflet/leaflet.js")
        #expect(script.status == .ok && script.text == "/* leaflet.js */")
        #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
        let style = try await get(server, "/static/leaflet/leaflet.css")
        #expect(style.headers[.contentType] == "text/css; charset=utf-8")
        let image = try await get(server, "/static/leaflet/images/marker-icon.png")
        #expect(image.status == .ok && image.headers[.contentType] == "image/png")
    }

    /// Nothing outside the Leaflet directory, nor hidden or untyped files, whatever the path says.
    @Test(arguments: [
        "/static/leaflet/../../../../etc/passwd", "/static/leaflet/%2e%2e/%2e%2e/etc/passwd",
        "/static/leaflet/.hidden.js", "/static/leaflet/images/../../leaflet.js", "/static/leaflet/other/leaflet.js",
        "/static/leaflet/leaflet.js.map", "/static/leaflet/", "/static/leaflet/" + String(repeating: "a", count: 5000),
        "/static/leaflet/leaflet.js%00.png", "/static/leaflet/images/a/b.png",
    ])
    func hostilePathsAreRefused(path: String) async throws {
        let leaflet = try Self.fakeLeaflet()
        defer { try? FileManager.default.removeItem(atPath: leaflet) }
        let server = try await TestServer { $0.leafletDirectory = leaflet }
        let response = try await get(server, path)
        #expect(response.status == .notFound)
        #expect(!response.text.contains("secret") && !response.text.contains("root:"))
    }

    @Test func onlyPlainNamesMapToFiles() {
        #expect(LeafletAssets.file(for: "leaflet.js", in: "/d")?.path == "/d/leaflet.js")
        #expect(LeafletAssets.file(for: "images/layers.png", in: "/d")?.type == "image/png")
        for bad in ["..", "../x.js", "images/../x.js", ".x.js", "a/b.js", "x.exe", "", "images/", "images/.."] {
            #expect(LeafletAssets.file(for: bad, in: "/d") == nil, "\(bad)")
        }
    }
}

import Foundation
import Testing

@testable import TrackServer

/// The pages' scripts and styles are the files of `Pages/Assets` (issue 42), read from the
/// resource bundle beside the executable.
@Suite struct PageAssetsTests {
    /// Every script a page names is its data line and its files, byte for byte, in order.
    @Test func eachPageScriptIsItsDataAndItsFiles() throws {
        let files = try PageAssets.loaded.get()
        let parts = [
            "map.js": ["local-time.js", "duration.js", "day-picker.js", "gaps.js", "svg-map.js"],
            "leaflet-map.js": [
                "local-time.js", "duration.js", "day-picker.js", "gaps.js", "map-layout.js", "leaflet-map.js",
            ],
            "range-map.js": ["local-time.js", "map-layout.js", "range-map.js"],
            "timeline.js": ["local-time.js", "duration.js", "timeline.js"],
            "devices.js": ["map-layout.js", "devices-map.js"],
        ]
        for (name, names) in parts {
            let script = try #require(try PageScripts.script(name), "\(name)")
            let joined = try names.map { try #require(files[$0], "\($0) is not in the bundle") }.joined()
            #expect(script.hasPrefix("const "), "\(name) starts with its data")
            #expect(script.hasSuffix(joined), "\(name) ends with \(names)")
        }
        #expect(try PageScripts.script("other.js") == nil)
    }

    /// A server whose executable was copied without its bundle is told what to copy where.
    @Test func withoutItsBundleTheServerSaysWhatToCopyWhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .failure(let missing) = PageAssets.load(besides: directory) else {
            Issue.record("the assets loaded from an empty directory")
            return
        }
        #expect(missing.description.contains("in \(directory.path), \(PageAssets.bundleName)/Assets is missing"))
        #expect(missing.description.contains("Copy the folder \(PageAssets.bundleName) from the build"))
        // With the folder there, the files are read.
        let assets = directory.appendingPathComponent(PageAssets.bundleName).appendingPathComponent("Assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try Data("function f() {}\n".utf8).write(to: assets.appendingPathComponent("f.js"))
        #expect(try PageAssets.load(besides: directory).get() == ["f.js": "function f() {}\n"])
    }
}

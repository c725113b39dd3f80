import Foundation
import HTTPTypes

/// The pages' JavaScript and CSS (issue 42): plain files in `Pages/Assets`, which `node --check`
/// (`.ci/run`) and a browser's devtools read as they are. SwiftPM copies the folder into the
/// server's resource bundle (``bundleName``), a folder that must stay beside the executable; the
/// files are read once, and `bgtrack serve` reads them before it opens its store (``check()``),
/// so a server installed without its bundle stops at once, saying what to copy where.
///
/// The bundle is looked for beside the executable only, never through `Bundle.module`, whose
/// accessor ends the process when the bundle is missing.
package enum PageAssets {
    /// The folder SwiftPM writes beside the executable: `<package>_<target>.resources`.
    package static let bundleName = "BackgroundTrackerTools_TrackServer.resources"

    /// The files of `Pages/Assets` by name, read at first use from beside this executable.
    static let loaded: Result<[String: String], Missing> = load(besides: Bundle.main.bundleURL)

    /// Every file of the bundle's `Assets` folder beside `directory` (an executable's folder).
    static func load(besides directory: URL) -> Result<[String: String], Missing> {
        let folder = directory.appendingPathComponent(bundleName).appendingPathComponent("Assets")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !names.isEmpty else {
            return .failure(Missing(directory: directory.path, file: nil))
        }
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".js") || name.hasSuffix(".css") {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                return .failure(Missing(directory: directory.path, file: name))
            }
            files[name] = String(decoding: data, as: UTF8.self)
        }
        return .success(files)
    }

    /// Throws unless the files are beside the executable: a server's first check at startup.
    package static func check() throws(Missing) {
        _ = try loaded.get()
    }

    /// The named files joined, in order; a missing bundle or file is a 500 that says what to copy.
    static func text(_ names: String...) throws(APIError) -> String {
        let files: [String: String]
        switch loaded {
        case .success(let loaded): files = loaded
        case .failure(let missing): throw APIError(.internalServerError, missing.description)
        }
        var text = ""
        for name in names {
            guard let file = files[name] else {
                let missing = Missing(directory: Bundle.main.bundleURL.path, file: name)
                throw APIError(.internalServerError, missing.description)
            }
            text += file
        }
        return text
    }

    /// The resource bundle, or one of its files, is not beside the executable.
    package struct Missing: Error, CustomStringConvertible {
        /// The executable's folder, where the bundle belongs.
        var directory: String
        /// The file that is missing or unreadable; `nil` when the whole folder is.
        var file: String?

        package var description: String {
            let what =
                file.map { "\(PageAssets.bundleName)/Assets/\($0) cannot be read" }
                ?? "\(PageAssets.bundleName)/Assets is missing"
            return "the server's page scripts and styles are not beside its executable: in \(directory), \(what). "
                + "Copy the folder \(PageAssets.bundleName) from the build (Tools/.build/release/ after "
                + "`swift build --package-path Tools -c release --product bgtrack`) into \(directory), next to "
                + "bgtrack (docs/server.md §Installing)"
        }
    }
}

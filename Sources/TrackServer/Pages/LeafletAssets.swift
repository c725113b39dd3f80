import Foundation
import HTTPTypes
import Hummingbird

/// Leaflet, served by the server itself from Debian's `libjs-leaflet` package, so the map page
/// needs no CDN and works on a machine without internet. The files are read from the package's
/// directory on request (never copied into this repository).
public enum LeafletAssets {
    /// Where Debian's `libjs-leaflet` installs Leaflet.
    public static let debianDirectory = "/usr/share/javascript/leaflet"

    /// `debianDirectory` if Leaflet is installed there, else `nil`.
    public static func installedDirectory() -> String? {
        isUsable(debianDirectory) ? debianDirectory : nil
    }

    /// Whether `directory` holds `leaflet.js` and `leaflet.css`.
    public static func isUsable(_ directory: String) -> Bool {
        ["leaflet.js", "leaflet.css"].allSatisfy {
            FileManager.default.isReadableFile(atPath: (directory as NSString).appendingPathComponent($0))
        }
    }

    /// Whether the map pages use Leaflet: `directory` (``ServerConfiguration/leafletDirectory``) is set and holds it.
    static func isAvailable(in directory: String?) -> Bool {
        directory.map(isUsable) ?? false
    }

    /// The file under `directory` for a request path below `/static/leaflet/`, or `nil` for
    /// anything but a plain file name (optionally in `images/`) with a known type: no `..`, no
    /// hidden files, no other directories.
    static func file(for relativePath: String, in directory: String) -> (path: String, type: String)? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), parts.count == 1 || parts[0] == "images", let name = parts.last,
            !name.isEmpty, !name.hasPrefix("."),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { return nil }
        let types = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "png": "image/png"]
        guard let type = types[(name as NSString).pathExtension] else { return nil }
        return ((directory as NSString).appendingPathComponent(parts.joined(separator: "/")), type)
    }
}

extension PageController {
    /// `GET /static/leaflet/…`: Leaflet's script, stylesheet and marker images.
    func leafletAsset(_ request: Request, context: some RequestContext) async throws -> Response {
        let prefix = "/static/leaflet/"
        let path = request.uri.path
        guard let directory = leafletDirectory, path.hasPrefix(prefix),
            let (file, type) = LeafletAssets.file(for: String(path.dropFirst(prefix.count)), in: directory),
            let data = FileManager.default.contents(atPath: file)
        else {
            throw APIError(
                .notFound,
                "no such Leaflet file; install Debian's libjs-leaflet (apt-get install libjs-leaflet) for the map")
        }
        var headers: HTTPFields = [.contentType: type]
        headers[.cacheControl] = "public, max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

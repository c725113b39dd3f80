/// The file formats `bgtrack import` and `POST /v1/devices/{device}/imports` read.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// Google Takeout `Records.json`, the on-device Timeline export, GeoJSON: one reader follows
    /// whichever arrays the file holds.
    case json
    /// GPX or KML.
    case xml
    /// The OwnTracks Recorder's `.rec` lines.
    case rec
    /// GeoLife's `.plt` trajectories (a research collection's format).
    case plt
    /// A zip archive (Google Takeout's download): its location files, each in its own format.
    case zip

    /// The format a file's first bytes show (after a UTF-8 byte order mark and whitespace): `{` or
    /// `[` is JSON, `<` is XML, a digit starts a `.rec` line's time. `nil` when none fits.
    public static func detect(head: some Collection<UInt8>) -> ImportFormat? {
        let text = head.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if text.starts(with: "Geolife trajectory".utf8) { return .plt }
        if text.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        var bytes = text.prefix(1)
        guard let first = bytes.popFirst() else { return nil }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .rec
        default: return nil
        }
    }

    /// Why ``detect(head:)`` found no format, in words that say what to do: archives are named
    /// (a Takeout download is a zip), anything else gets the formats to choose from with `hint`
    /// (`--format` or `?format=`).
    public static func undetected(head: some Collection<UInt8>, hint: String) -> String {
        let bytes = Array(head.prefix(4))
        if bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return "this is an empty zip archive: it holds no file to import"
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            return "this is a gzip-compressed file: decompress it (gunzip) and import the file inside"
        }
        return "cannot tell the format from the first bytes (not JSON, XML or .rec lines); name it with \(hint): "
            + names
    }

    /// The format a `--format` / `?format=` value names: the user's words (`gpx`, `kml`, `geojson`,
    /// `takeout`, `timeline`, `owntracks`, `rec`) or this type's.
    public init?(name: String) {
        switch name.lowercased() {
        case "json", "geojson", "takeout", "records", "timeline": self = .json
        case "xml", "gpx", "kml", "tcx": self = .xml
        case "rec", "owntracks", "owntracks-rec": self = .rec
        case "plt", "geolife": self = .plt
        case "zip": self = .zip
        default: return nil
        }
    }

    /// What `--format` accepts, for messages.
    public static let names =
        "gpx, tcx, kml, geojson, takeout (Records.json or the Timeline export), owntracks-rec, plt (GeoLife), zip"

    func makeReader() -> any ImportReader {
        switch self {
        case .json: JSONImportReader()
        case .xml: XMLImportReader()
        case .rec: LineImportReader(OwnTracksRecFormat())
        case .plt: LineImportReader(GeoLifePLTFormat())
        case .zip: ZipImportReader()
        }
    }
}

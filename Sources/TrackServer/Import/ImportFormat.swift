/// The file formats `bgtrack import` and `POST /v1/devices/{device}/imports` read.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// Google Takeout `Records.json`, the on-device Timeline export, GeoJSON: one reader follows
    /// whichever arrays the file holds.
    case json
    /// GPX or KML.
    case xml
    /// The OwnTracks Recorder's `.rec` lines.
    case rec

    /// The format a file's first bytes show (after a UTF-8 byte order mark and whitespace): `{` or
    /// `[` is JSON, `<` is XML, a digit starts a `.rec` line's time. `nil` when none fits.
    public static func detect(head: some Collection<UInt8>) -> ImportFormat? {
        var bytes = head.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }.prefix(1)
        guard let first = bytes.popFirst() else { return nil }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .rec
        default: return nil
        }
    }

    /// The format a `--format` / `?format=` value names: the user's words (`gpx`, `kml`, `geojson`,
    /// `takeout`, `timeline`, `owntracks`, `rec`) or this type's.
    public init?(name: String) {
        switch name.lowercased() {
        case "json", "geojson", "takeout", "records", "timeline": self = .json
        case "xml", "gpx", "kml": self = .xml
        case "rec", "owntracks", "owntracks-rec": self = .rec
        default: return nil
        }
    }

    /// What `--format` accepts, for messages.
    public static let names = "gpx, kml, geojson, takeout (Records.json or the Timeline export), owntracks-rec"

    func makeReader() -> any ImportReader {
        switch self {
        case .json: JSONImportReader()
        case .xml: XMLImportReader()
        case .rec: OwnTracksRecReader()
        }
    }
}

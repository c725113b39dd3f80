package import Foundation

/// The wire protocol the phone uploads with: ours, or one a server people already run speaks.
///
/// | protocol | request | acknowledged by |
/// | --- | --- | --- |
/// | `native` | `POST /v1/batches`, a batch | per sample: `accepted` + `duplicates` |
/// | `overland` | `POST`, `{"locations": [GeoJSON Feature…]}` | the whole batch: `{"result":"ok"}` |
/// | `owntracks` | `POST`, one `_type: location` object, Basic auth | that point: any 2xx |
/// | `traccar` | `POST ?id=…&lat=…` (the OsmAnd protocol), one point | that point: 200 |
package enum UploadProtocol: String, CaseIterable, Hashable, Sendable {
    case native, overland, owntracks, traccar

    /// The path our own `bgtrack serve` takes this protocol on.
    package var defaultPath: String {
        switch self {
        case .native: "/v1/batches"
        case .overland: "/ingest/overland"
        case .owntracks: "/ingest/owntracks"
        case .traccar: "/ingest/osmand"
        }
    }

    /// Whether the protocol carries one point per request (so a batch costs a request per sample).
    package var isPerPoint: Bool { self == .owntracks || self == .traccar }

    /// The URL to send to: `server` itself when it names a path (another server's endpoint,
    /// e.g. `https://recorder.example/pub` or `http://traccar:5055/`), else our route on it.
    /// A native server URL is always the base (`/v1/batches` is appended).
    package func endpoint(for server: URL) -> URL {
        if self != .native, !server.path.isEmpty, server.path != "/" { return server }
        return server.appendingPathComponent(String(defaultPath.dropFirst()))
    }
}

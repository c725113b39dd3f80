/// Everything the server keeps, one protocol per resource: devices and operators
/// (``DeviceStore``), sessions (``SessionStore``), samples (``SampleStore``), quarantined points
/// and events (``IngestLogStore``), alerts (``AlertStore``), share links (``ShareStore``),
/// retention and erasure (``RetentionStore``), gap intervals (``GapStore``), time zones
/// (``TimeZoneStore``), the timeline (``TimelineStore``), map detail (``TrackDetailStore``) and
/// imports (``ImportStore``). A route or service names only the ones it uses.
///
/// The SQLite store is the embedded default; `PostgresTrackStore` (target TrackServerPostgres) lets
/// several servers share one database. Both implement every resource, one file per resource, and
/// pass the same contract suites (`StoreContract` and the others in Tests/TrackServerTests).
public protocol TrackStore: DeviceStore, SessionStore, SampleStore, IngestLogStore, AlertStore, ShareStore,
    RetentionStore, GapStore, TimeZoneStore, TimelineStore, TrackDetailStore, ImportStore
{}

/// Store failures that callers can act on.
public enum TrackStoreError: Error, Hashable, CustomStringConvertible {
    case duplicateName(String)
    case unknownDevice(String)

    public var description: String {
        switch self {
        case .duplicateName(let name):
            "the name \"\(name)\" is already registered; pick another name or revoke the old one first"
        case .unknownDevice(let name):
            "no device is registered as \"\(name)\"; add it with `bgtrack device add \(name)`"
        }
    }
}

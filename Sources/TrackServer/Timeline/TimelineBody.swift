import BackgroundCore
import LocationLog
import TrackGeometry

/// `GET /v1/devices/{id}/timeline`'s answer (times in epoch milliseconds, distances in metres).
struct TimelineBody: Encodable {
    var device: String
    var from: Int64
    var to: Int64
    /// The settings the entries were computed with.
    var stay_radius_m: Double
    var stay_minimum_s: Double
    var gap_threshold_s: Double
    var entries: [TimelineItem]
    /// The phone's upload delays overlapping the range (issue 37 item 3): when its points arrived
    /// late, and why. Apart from the entries: a delay is not a gap in sampling and explains none.
    var delays: [TimelineItem.Reason]

    init(
        device: String, from: Instant, to: Instant, closed: [TimelineEntry], open: [TimelineEntry],
        delays: [UploadDelay], settings: TimelineSettings
    ) {
        self.device = device
        self.from = from.milliseconds
        self.to = to.milliseconds
        stay_radius_m = settings.stayRadius
        stay_minimum_s = settings.minimumStay.seconds
        gap_threshold_s = settings.gapThreshold.seconds
        entries = closed.map { TimelineItem($0, open: false) } + open.map { TimelineItem($0, open: true) }
        self.delays = delays.map(TimelineItem.Reason.init)
    }
}

/// One entry: `{"type":"stay"|"trip"|"gap", "start", "end", "open", …}` with the fields of its type.
struct TimelineItem: Encodable {
    struct Reason: Encodable {
        var start: Int64
        var end: Int64
        var reason: String
        var detail: String?

        init(start: Int64, end: Int64, reason: String, detail: String?) {
            self.start = start
            self.end = end
            self.reason = reason
            self.detail = detail
        }

        init(_ delay: UploadDelay) {
            self.init(
                start: delay.start.milliseconds, end: delay.end.milliseconds, reason: delay.reason.rawValue,
                detail: delay.detail)
        }
    }

    var type: String
    var start: Int64
    var end: Int64
    /// Still growing: the last stay or trip, not closed yet.
    var open: Bool
    // A stay.
    var lat: Double?
    var lon: Double?
    var radius_m: Double?
    var inferred: Bool?
    var samples: Int?
    // A trip.
    var from: [Double]?
    var to: [Double]?
    var distance_m: Double?
    var duration_s: Double?
    var mean_speed_mps: Double?
    var mode: String?
    // A gap.
    var explained: Bool?
    var reasons: [Reason]?

    init(_ entry: TimelineEntry, open: Bool) {
        start = entry.start.milliseconds
        end = entry.end.milliseconds
        self.open = open
        switch entry {
        case .stay(let stay):
            type = "stay"
            lat = stay.latitude
            lon = stay.longitude
            radius_m = (stay.radius * 10).rounded() / 10
            inferred = stay.inferred
            samples = stay.sampleCount
        case .trip(let trip):
            type = "trip"
            from = [trip.startLatitude, trip.startLongitude]
            to = [trip.endLatitude, trip.endLongitude]
            distance_m = trip.distance.rounded()
            duration_s = trip.duration.seconds
            mean_speed_mps = (trip.meanSpeed * 100).rounded() / 100
            mode = trip.mode.rawValue
            samples = trip.sampleCount
        case .gap(let gap):
            type = "gap"
            explained = gap.explained
            reasons = gap.reasons.map {
                Reason(
                    start: $0.start.milliseconds, end: $0.end.milliseconds, reason: $0.reason.rawValue,
                    detail: $0.detail)
            }
        }
    }
}

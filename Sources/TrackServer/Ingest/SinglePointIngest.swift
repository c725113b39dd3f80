import BackgroundCore
import Foundation
import HTTPTypes
import LocationLog
import Logging
import NIOCore
import Synchronization

/// How the single-point lane answered a request it took (``SinglePointLane``).
enum LaneAnswer: Sendable {
    /// The whole answer: the point was committed (fsynced) first.
    case response(HTTPResponse, body: ByteBuffer)
    /// The lane let go of it: the router handles the request as if the lane had never seen it.
    case router
}

/// The request fields the single-point lane reads, found in one pass over the head's fields.
///
/// `HTTPFields`' subscript builds a name index (a dictionary) on its first lookup; the lane asked
/// five names of every request, and those lookups and hashes were about 2 % of the server's time
/// under OwnTracks load (perf, issue 23 item 5). A field the lane needs that appears twice makes
/// the request ``isPlain`` false: the router then handles it, with the subscript's combining rules.
struct LaneFields: Sendable, Equatable {
    var authorization: String?
    var contentType: String?
    /// No `Connection`, `Content-Encoding` or `Expect`, and no field read here twice.
    var isPlain = true

    init(_ fields: HTTPFields) {
        for field in fields {
            switch field.name {
            case .connection, .contentEncoding, .expect: isPlain = false
            case .authorization: Self.keep(field.value, in: &authorization, &isPlain)
            case .contentType: Self.keep(field.value, in: &contentType, &isPlain)
            default: continue
            }
        }
    }

    private static func keep(_ value: String, in slot: inout String?, _ isPlain: inout Bool) {
        if slot == nil { slot = value } else { isPlain = false }
    }
}

/// The requests the single-point lane may take: one OwnTracks or OsmAnd point.
enum LaneRoute: Sendable, Equatable {
    case ownTracks
    case osmAnd

    /// The route of a request head the lane may take, or `nil`: the path is exactly the route's,
    /// the body is neither compressed nor announced with `Expect`, the request neither asks to
    /// close the connection nor says anything else about it, and no field the lane reads comes
    /// twice (``LaneFields``; the router handles all those).
    init?(_ head: HTTPRequest) {
        guard LaneFields(head.headerFields).isPlain, let path = head.path else { return nil }
        let route = path.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false).first
        switch head.method {
        case .post where route?.elementsEqual("/ingest/owntracks".utf8) == true: self = .ownTracks
        case .post where route?.elementsEqual("/ingest/osmand".utf8) == true: self = .osmAnd
        case .get where route?.elementsEqual("/ingest/osmand".utf8) == true: self = .osmAnd
        default: return nil
        }
    }
}

extension IngestController {
    /// After an ingest commit: the timeline, the sample counters and the log line (every ingest
    /// route of a single-point protocol and the lane).
    func acknowledge(
        _ source: IngestSource, _ samples: [TrackSample], outcome: InsertOutcome, device: String, logger: Logger
    ) {
        updateTimeline(samples, outcome: outcome, device: device)
        record(source, outcome: outcome, rejected: 0)
        logStored(source, outcome: outcome, device: device, logger: logger)
    }

    private func logStored(_ source: IngestSource, outcome: InsertOutcome, device: String, logger: Logger) {
        logger.info(
            "\(source.rawValue) location stored",
            metadata: [
                "device": "\(device)", "accepted": "\(outcome.accepted.count)",
                "duplicates": "\(outcome.duplicates.count)",
            ])
    }

    /// Takes one point on the lane when nothing about it needs the router: a token checked in the
    /// last second (``WriterCache``) and one plain location that passes the rules. Anything else
    /// (an unknown token, an encrypted or unreadable message, an event, a refusal) returns `false`
    /// at once, and the router handles the request from the start, with its quarantines and errors.
    ///
    /// When it returns `true`, `answer` is called once: with the answer after the commit, or
    /// ``LaneAnswer/router`` when the commit failed or the queue was full (the router then tries
    /// again and answers the error). It is called on `eventLoop` when one is given, else on
    /// whatever thread the commit ended on.
    ///
    /// The commit's own thread (GRDB's writer queue) only hands the samples to the timeline, in
    /// commit order; the counters, the log line and the answer are made on `eventLoop`. The
    /// writer queue runs the next commit only once this one's completion returns, so every
    /// microsecond spent there answering is a microsecond every waiting request waits longer.
    func laneIngest(
        _ route: LaneRoute, head: HTTPRequest, body: ByteBuffer,
        security: SecurityHeadersMiddleware<TrackRequestContext>, eventLoop: (any EventLoop)? = nil,
        tokenHashes: LaneTokenHashes? = nil, peer: String? = nil, answer: @escaping @Sendable (LaneAnswer) -> Void
    ) -> Bool {
        // The timeline far behind: the router's path waits for it (``waitForTimeline()``).
        if timeline?.isBacklogged == true { return false }
        let now = clock.now
        let fields = LaneFields(head.headerFields)
        guard fields.isPlain else { return false }
        let bytes = Array(body.readableBytesView)
        let device: String
        let samples: [TrackSample]
        let source: IngestSource
        let query = head.path.flatMap { path in path.firstIndex(of: "?").map { String(path[path.index(after: $0)...]) }
        }
        switch route {
        case .ownTracks:
            guard let credentials = Authenticator.basic(authorization: fields.authorization),
                let known = writerCache.device(tokenHash: Self.hash(credentials.password, tokenHashes), at: now),
                let json = try? JSONBody.parse(bytes),
                case .location(let sample)? = try? OwnTracksParser(rules: rules).parse(json, now: now)
            else { return false }
            (device, samples, source) = (known, [sample], .owntracks)
        case .osmAnd:
            guard
                let parsed = try? parseOsmAnd(
                    method: head.method, query: query, contentType: fields.contentType, bytes: bytes),
                let token = parsed.token,
                writerCache.device(tokenHash: Self.hash(token, tokenHashes), at: now) == parsed.device
            else { return false }
            (device, samples, source) = (parsed.device, parsed.samples, .osmand)
        }
        let logger = self.logger
        committer.submit(samples, device: device, at: now, bytes: bytes.count + (query?.utf8.count ?? 0)) {
            [self] submission in
            guard case .committed(.success(let outcome)) = submission else {
                return Self.run(on: eventLoop) { answer(.router) }
            }
            // In commit order, on the commit's thread: the timeline reads the samples in order.
            updateTimeline(samples, outcome: outcome, device: device)
            Self.run(on: eventLoop) {
                answer(respond(source, outcome: outcome, device: device, method: head.method, query: query, security))
            }
        }
        // Who sent it, as the router's ClientAddressMiddleware decides it for every other request.
        let client = trustedProxies.client(peer: peer, headers: head.headerFields)
        if client.proxy != nil {
            metrics.countForwarding(believed: true)
        } else if head.headerFields.hasForwarding {
            metrics.countForwarding(believed: false)
        }
        if logger.logLevel <= .info {
            RequestLogMiddleware<TrackRequestContext>.log(
                logger, level: .info, method: head.method,
                path: head.path.map { String($0.prefix { $0 != "?" }) } ?? "",
                client: client)
        }
        return true
    }

    private static func hash(_ token: String, _ memo: LaneTokenHashes?) -> String {
        memo?.hash(token) ?? Tokens.hash(token)
    }

    /// Runs `work` on `eventLoop` (never inside the caller, even on that loop), or at once without one.
    private static func run(on eventLoop: (any EventLoop)?, _ work: @escaping @Sendable () -> Void) {
        if let eventLoop { eventLoop.execute(work) } else { work() }
    }

    /// The counters, the log line and the answer for a point the lane committed.
    private func respond(
        _ source: IngestSource, outcome: InsertOutcome, device: String, method: HTTPRequest.Method, query: String?,
        _ security: SecurityHeadersMiddleware<TrackRequestContext>
    ) -> LaneAnswer {
        record(source, outcome: outcome, rejected: 0)
        logStored(source, outcome: outcome, device: device, logger: logger)
        let json = source == .owntracks
        var headers = security.laneHeaders(json: json, noStore: query?.contains("token=") == true)
        headers[.date] = HTTPDate.now
        metrics.countRequest(method: method, status: .ok)
        return .response(HTTPResponse(status: .ok, headerFields: headers), body: json ? Self.emptyList : ByteBuffer())
    }

    /// OwnTracks' answer body: no friends' locations or commands.
    private static let emptyList = ByteBuffer(string: "[]")
}

/// The `Date` header's text for this second, made once a second (`Date` is in every answer).
enum HTTPDate {
    private static let cache = Mutex<(second: Int64, text: String)>((Int64.min, ""))

    static var now: String {
        let seconds = Int64(Date().timeIntervalSince1970.rounded(.down))
        return cache.withLock { cached in
            if cached.second != seconds {
                cached = (seconds, format(Date(timeIntervalSince1970: TimeInterval(seconds))))
            }
            return cached.text
        }
    }

    /// RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? .current
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}

/// The last token a lane connection presented and its hash. A phone's connection sends the same
/// token with every point, and hashing it again (SHA-256) cost about 7 % of an event loop's time
/// under OwnTracks load (perf, issue 23 item 5). Only the hash is memoised: whether the token
/// still writes to a device is asked of the ``WriterCache`` at every request, so a revocation is
/// seen as before. One per connection, used on its event loop only.
final class LaneTokenHashes {
    private var token: String?
    private var tokenHash = ""

    func hash(_ token: String) -> String {
        if token != self.token {
            self.token = token
            tokenHash = Tokens.hash(token)
        }
        return tokenHash
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension TrackServerEnvironment {
    /// `POST /ingest/owntracks`: HTTP Basic, password = the device's token (which names the device;
    /// the user name is free, usually the person); answers `[]`.
    func ingestOwnTracks(_ request: Request, context: some RequestContext) async throws -> Response {
        try await countingRefusals(.owntracks) {
            guard let credentials = Authenticator.basic(request) else {
                throw APIError(
                    .unauthorized,
                    "OwnTracks needs HTTP Basic auth: user = the device name, password = its token",
                    headers: [.wwwAuthenticate: "Basic realm=\"bgtrack\""])
            }
            // The token names the device. OwnTracks' user is usually the person and its device the
            // phone, and OwnTracks iOS deletes a message on any 4xx: refusing a user name that is
            // not the device's would lose the point. The names are logged, never enforced.
            let device = try await auth.writer(token: credentials.password)
            context.logger.debug(
                "owntracks identity",
                metadata: [
                    "device": "\(device)", "user": "\(LogText.bounded(credentials.user))",
                    "x_limit_u": "\(LogText.bounded(request.headers[.init("X-Limit-U") ?? .accept] ?? ""))",
                    "x_limit_d": "\(LogText.bounded(request.headers[.init("X-Limit-D") ?? .accept] ?? ""))",
                ])
            let bytes = try await bodyReader.read(request)
            let body: JSONValue
            let message: OwnTracksParser.Parsed
            do {
                body = try JSONBody.parse(bytes)
                message = try OwnTracksParser(rules: rules).parse(body, now: clock.now)
            } catch let error as APIError where error.status == .badRequest {
                // OwnTracks deletes a message on any 4xx: answered 200 and kept aside instead.
                try await store.quarantine(
                    device: device, source: .owntracks, reason: error.message,
                    raw: String(decoding: bytes.prefix(4096), as: UTF8.self), at: clock.now)
                context.logger.notice(
                    "owntracks message quarantined",
                    metadata: ["device": "\(device)", "reason": "\(LogText.bounded(error.message))"])
                return Response.text("[]", contentType: "application/json")
            }
            switch message {
            case .location(let sample):
                let outcome = try await committer.insert([sample], device: device, at: clock.now, bytes: bytes.count)
                await record(.owntracks, outcome: outcome, rejected: 0)
                context.logger.info(
                    "owntracks location stored",
                    metadata: ["device": "\(device)", "duplicate": "\(outcome.duplicates.count == 1)"])
            case .event(let type):
                let text = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
                try await store.recordEvent(
                    device: device, type: "owntracks.\(type.prefix(40))", json: text, at: clock.now)
                context.logger.info(
                    "owntracks message stored", metadata: ["device": "\(device)", "type": "\(LogText.bounded(type))"])
            }
            return Response.text("[]", contentType: "application/json")
        }
    }
}

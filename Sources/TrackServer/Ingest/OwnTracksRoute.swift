import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension TrackServerEnvironment {
    /// `POST /ingest/owntracks`: HTTP Basic, user = device name, password = its token; answers `[]`.
    func ingestOwnTracks(_ request: Request, context: some RequestContext) async throws -> Response {
        try await countingRefusals(.owntracks) {
            guard let credentials = Authenticator.basic(request) else {
                throw APIError(
                    .unauthorized,
                    "OwnTracks needs HTTP Basic auth: user = the device name, password = its token",
                    headers: [.wwwAuthenticate: "Basic realm=\"bgtrack\""])
            }
            let device = try await auth.writer(token: credentials.password)
            guard device == credentials.user else {
                throw APIError(
                    .forbidden,
                    "the token belongs to another device than user \"\(credentials.user)\"; "
                        + "set the OwnTracks user to the device name the token was made for")
            }
            let body = try JSONBody.parse(try await bodyReader.read(request))
            switch try OwnTracksParser(rules: rules).parse(body, now: clock.now) {
            case .location(let sample):
                let outcome = try await store.insert([sample], device: device, at: clock.now)
                await record(.owntracks, outcome: outcome, rejected: 0)
                context.logger.info(
                    "owntracks location stored",
                    metadata: ["device": "\(device)", "duplicate": "\(outcome.duplicates.count == 1)"])
            case .event(let type):
                let text = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
                try await store.recordEvent(
                    device: device, type: "owntracks.\(type.prefix(40))", json: text, at: clock.now)
                context.logger.info("owntracks message stored", metadata: ["device": "\(device)", "type": "\(type)"])
            }
            return Response.text("[]", contentType: "application/json")
        }
    }
}

import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension IngestController {
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
            let parser = OwnTracksParser(rules: rules)
            var plaintext = bytes
            var body: JSONValue
            var message: OwnTracksParser.Parsed
            do {
                body = try JSONBody.parse(bytes)
                message = try parser.parse(body, now: clock.now)
                if case .encrypted(let data) = message {
                    plaintext = try await decryptOwnTracks(data, device: device, raw: bytes, context: context)
                    body = try JSONBody.parse(plaintext)
                    message = try parser.parse(body, now: clock.now)
                    if case .encrypted = message {
                        throw APIError(.badRequest, "an encrypted message holds another encrypted message")
                    }
                }
            } catch let error as APIError where error.status == .badRequest {
                // OwnTracks deletes a message on any 4xx: answered 200 and kept aside instead.
                try await quarantine(
                    device: device, source: .owntracks, reason: error.message,
                    raw: String(decoding: plaintext.prefix(4096), as: UTF8.self), logger: context.logger)
                recordQuarantinedSample(.owntracks)
                return Response.text("[]", contentType: "application/json")
            }
            switch message {
            case .location(let sample):
                let outcome = try await committer.insert([sample], device: device, at: clock.now, bytes: bytes.count)
                acknowledge(.owntracks, [sample], outcome: outcome, device: device, logger: context.logger)
                await waitForTimeline()
            case .event(let type):
                let text = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
                try await ingestLog.recordEvent(
                    device: device, type: "owntracks.\(type.prefix(40))", json: text, at: clock.now)
                context.logger.info(
                    "owntracks message stored", metadata: ["device": "\(device)", "type": "\(LogText.bounded(type))"])
            case .encrypted:
                break  // opened above: an encrypted message inside one was refused there
            }
            return Response.text("[]", contentType: "application/json")
        }
    }

    /// The plaintext of an encrypted OwnTracks message, with the device's key.
    ///
    /// Without a key, or with one that does not open it, the message is kept aside for the
    /// operator (once an hour per device and reason, as the phone sends it again) and refused
    /// with a 503: OwnTracks iOS deletes a message on 2xx and 4xx but keeps it queued on 5xx
    /// (owntracks/ios `Connection.m` `sendHTTP:data:`), and Android re-queues a location on any
    /// non-2xx for 100,000 attempts (owntracks/android `HttpMessageProcessorEndpoint.kt`,
    /// `MessageLocation.numberOfRetries`), so the point reaches the map once the key is set.
    /// Payloads that no key could open (not base64, too short) are unreadable: a 400, kept aside
    /// and answered 200 by the caller.
    private func decryptOwnTracks(
        _ data: String, device: String, raw: [UInt8], context: some RequestContext
    ) async throws -> [UInt8] {
        let reason: String
        if let key = try await devices.ownTracksKey(device: device) {
            do throws(OwnTracksDecryptionError) {
                return try OwnTracksEncryption.open(data, key: key, library: secretBox)
            } catch {
                switch error {
                case .notBase64, .tooShort:
                    throw APIError(.badRequest, error.description)
                case .wrongKey, .unavailable:
                    reason = error.description + "; answered 503 so the phone keeps it and sends it again"
                }
            }
        } else {
            reason =
                "an encrypted OwnTracks message, but no OwnTracks key is set for device \(device): give the app's "
                + "Encryption key to `bgtrack device set \(device) --owntracks-key -`; answered 503 so the phone "
                + "keeps it and sends it again"
        }
        let now = clock.now.milliseconds
        let keptLately = try await ingestLog.rejectedPoints(device: device, limit: 1).first.map {
            $0.reason == reason && now - $0.receivedAt < 3_600_000
        }
        if keptLately != true {
            try await quarantine(
                device: device, source: .owntracks, reason: reason,
                raw: String(decoding: raw.prefix(4096), as: UTF8.self), logger: context.logger)
        }
        throw APIError(.serviceUnavailable, reason, headers: [.retryAfter: "300"])
    }
}

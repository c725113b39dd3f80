import Foundation
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

extension IngestController {
    /// `GET` or `POST /ingest/osmand`: answers `200` with an empty body after commit.
    ///
    /// The OsmAnd protocol identifies a device only by `id`; `token` is our addition. An operator
    /// who allows token-less OsmAnd devices accepts that anyone who knows or guesses a device name
    /// can add points to its track (they still cannot read it).
    func ingestOsmAnd(_ request: Request, context: some RequestContext) async throws -> Response {
        try await countingRefusals(.osmand) {
            let bytes = request.method == .post ? try await bodyReader.read(request) : []
            let parsed: OsmAndParser.Parsed
            do {
                parsed = try parseOsmAnd(request, bytes: bytes)
            } catch let error as APIError where error.status == .badRequest {
                // Traccar Client resends its oldest point forever on any non-2xx: one bad point
                // (a clock two days ahead, say) would block its queue for good. An authenticated
                // device's unreadable point is kept aside with the reason and answered 200.
                guard let device = await authenticatedOsmAndDevice(request, bytes: bytes) else { throw error }
                let raw =
                    (request.uri.query ?? "")
                    + (bytes.isEmpty ? "" : "\n" + String(decoding: bytes.prefix(4096), as: UTF8.self))
                try await quarantine(
                    device: device, source: .osmand, reason: error.message, raw: raw, logger: context.logger)
                recordQuarantinedSample(.osmand)
                return Response(status: .ok)
            }
            // The common case first: a token of the named device proves it is registered and not
            // revoked, in one read (the device lookup below also counts the device's samples).
            if let token = parsed.token, (try? await auth.writer(token: token)) == parsed.device {
                return try await storeOsmAnd(parsed, bytes: bytes, request: request, context: context)
            }
            guard let registered = try await devices.device(named: parsed.device) else {
                throw APIError(
                    .badRequest, "unknown device id; register it with `bgtrack device add NAME` and use that name as id"
                )
            }
            // A revoked device is a credential problem (401: clients hold their points), not an
            // unknown id.
            guard registered.revokedAt == nil else {
                throw APIError.unauthorized("this device was revoked; ask the operator to register it again")
            }
            if parsed.token != nil || !allowTokenlessOsmAnd {
                let device = try await auth.writer(token: parsed.token)
                guard device == parsed.device else {
                    throw APIError(.forbidden, "the token belongs to another device than id \"\(parsed.device)\"")
                }
            }
            return try await storeOsmAnd(parsed, bytes: bytes, request: request, context: context)
        }
    }

    /// Stores an authorised request's points through the write pipeline; `200` after the commit.
    private func storeOsmAnd(
        _ parsed: OsmAndParser.Parsed, bytes: [UInt8], request: Request, context: some RequestContext
    ) async throws -> Response {
        let outcome = try await committer.insert(
            parsed.samples, device: parsed.device, at: clock.now,
            bytes: bytes.count + (request.uri.query?.utf8.count ?? 0))
        acknowledge(.osmand, parsed.samples, outcome: outcome, device: parsed.device, logger: context.logger)
        await waitForTimeline()
        return Response(status: .ok)
    }

    /// The device an unreadable OsmAnd request belongs to, when its token proves it: the `token`
    /// of the query or form names a live device, and `id`/`deviceid`, if given, is that device.
    private func authenticatedOsmAndDevice(_ request: Request, bytes: [UInt8]) async -> String? {
        var parameters = FormParameters.parse(request.uri.query ?? "") ?? [:]
        if let text = String(validating: bytes, as: UTF8.self), let form = FormParameters.parse(text) {
            parameters.merge(form) { _, body in body }
        }
        guard let token = parameters["token"], let device = try? await auth.writer(token: token) else { return nil }
        if let named = parameters["id"] ?? parameters["deviceid"], named != device { return nil }
        return device
    }

    private func parseOsmAnd(_ request: Request, bytes: [UInt8]) throws -> OsmAndParser.Parsed {
        try parseOsmAnd(
            method: request.method, query: request.uri.query, contentType: request.headers[.contentType], bytes: bytes)
    }

    /// The points of an OsmAnd request from its query string and, for a `POST`, its form or JSON body.
    func parseOsmAnd(method: HTTPRequest.Method, query text: String?, contentType: String?, bytes: [UInt8]) throws
        -> OsmAndParser.Parsed
    {
        let parser = OsmAndParser(rules: rules, maxSamples: maxSamplesPerBatch)
        var parameters = FormParameters.parse(text ?? "")
        guard let query = parameters else {
            throw APIError(.badRequest, "the query string is not valid percent-encoded UTF-8")
        }
        if method == .post {
            let contentType = contentType?.lowercased() ?? ""
            if contentType.contains("json") || bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "[") {
                return try parser.parse(json: try JSONBody.parse(bytes), token: query["token"], now: clock.now)
            }
            guard let text = String(validating: bytes, as: UTF8.self), let form = FormParameters.parse(text) else {
                throw APIError(.badRequest, "the form body is not valid percent-encoded UTF-8")
            }
            parameters = query.merging(form) { _, body in body }
        }
        return try parser.parse(parameters: parameters ?? query, now: clock.now)
    }
}

/// `a=1&b=two` (query strings and `application/x-www-form-urlencoded` bodies).
enum FormParameters {
    /// `name=value` pairs separated by `&`, each part decoded (``decode(_:)``); a repeated name
    /// keeps its last value; `nil` when a part does not decode.
    ///
    /// An ASCII text (every query a client sends: URLs are ASCII) is split byte by byte. Splitting
    /// a `String` splits its `Character`s, which cost 9 % of the server's time under OsmAnd load
    /// (perf, issue 23 item 5). In ASCII the only `Character` of more than one byte is CR LF, which
    /// holds neither `&` nor `=`, so both splits cut in the same places
    /// (`FormParseTests.theByteSplitAgreesWithTheCharacterSplit`).
    static func parse(_ text: String) -> [String: String]? {
        if let ascii = parseASCII(text) { return ascii }
        return parseCharacters(text)
    }

    /// ``parse(_:)`` split byte by byte; `nil` when `text` is not ASCII, `.some(nil)` when a part
    /// does not decode.
    static func parseASCII(_ text: String) -> [String: String]?? {
        var contiguous = text
        return contiguous.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? parseASCII(bytes) : nil }
    }

    private static func parseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: String]?? {
        var result = [String: String](minimumCapacity: 12)
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = decode(pair[..<(equals ?? pair.endIndex)]) else { return .some(nil) }
            guard let value = equals.map({ decode(pair[pair.index(after: $0)...]) }) ?? "" else { return .some(nil) }
            result[name] = value
        }
        return result
    }

    /// ``parse(_:)`` split by `Character`: for a text that is not ASCII.
    static func parseCharacters(_ text: String) -> [String: String]? {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { return nil }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            guard let value else { return nil }
            result[name] = value
        }
        return result
    }

    /// `+` as a space and `%XX` as a byte, the result valid UTF-8, else `nil` (as Foundation's
    /// `removingPercentEncoding`, which cost a sixth of an OsmAnd request's time on Linux).
    static func decode(_ part: Substring) -> String? {
        let utf8 = part.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(part) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let upper = utf8[high].hexDigitValue, let lower = utf8[low].hexDigitValue
                else {
                    return nil
                }
                bytes.append(upper << 4 | lower)
                index = low
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// ``decode(_:)`` of ASCII bytes.
    static func decode(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: part, as: UTF8.self)
        }
        return decode(Substring(String(decoding: part, as: UTF8.self)))
    }
}

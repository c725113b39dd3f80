import BackgroundCore
import HTTPTypes
import Hummingbird
import Logging

/// The answer of `POST /v1/devices/{id}/imports`.
struct ImportAnswer: Encodable {
    var format: String
    var points: Int
    var added: Int
    var duplicates: Int
    var rejected: Int
    var finished: Bool
    /// The first ``ImportRoute/maxProblems`` problems, each with its position.
    var problems: [String]
    var error: String?
}

enum ImportRoute {
    static let maxProblems = 100
}

extension TrackServerEnvironment {
    /// `POST /v1/devices/{id}/imports[?format=gpx|kml|geojson|takeout|owntracks-rec]`: the file as the
    /// body (not multipart, not compressed), streamed through the same pipeline as `bgtrack import`.
    /// Only the device's own token (or session) may import into it, as only it may upload.
    func importFile(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try context.parameters.require("id")
        let writer = try await auth.writer(token: Authenticator.bearer(request, allowQuery: false))
        guard writer == device else {
            throw APIError(.forbidden, "this token belongs to another device; a device imports only into itself")
        }
        guard let store = store as? any ImportStore else {
            throw APIError(.notImplemented, "this server's store cannot import")
        }
        let encoding = request.headers[.contentEncoding]?.lowercased() ?? "identity"
        guard encoding == "identity" || encoding.isEmpty else {
            throw APIError(
                .unsupportedMediaType,
                "Content-Encoding \"\(encoding.prefix(40))\" is not supported for imports; send the file uncompressed")
        }
        let limit = configuration.maxImportBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw APIError(
                .contentTooLarge,
                "the file is \(length) bytes, more than \(limit) (serve --max-import-bytes); split it or use "
                    + "`bgtrack import`",
                headers: [.connection: "close"])
        }
        var named: ImportFormat?
        if let name = request.uri.queryParameters.get("format") {
            guard let format = ImportFormat(name: name) else {
                throw APIError(.badRequest, "format \"\(name.prefix(40))\" is not one of: \(ImportFormat.names)")
            }
            named = format
        }
        var pipeline: ImportPipeline?
        var problems: [String] = []
        var read: Int64 = 0
        let now = clock.now
        func keep(_ found: [ImportProblem]) {
            for problem in found where problems.count < ImportRoute.maxProblems { problems.append(problem.message) }
        }
        func answer(_ pipeline: ImportPipeline, error: String?) throws -> Response {
            let counts = pipeline.checkpoint
            return try Response.json(
                ImportAnswer(
                    format: pipeline.formatName, points: counts.points, added: counts.added,
                    duplicates: counts.duplicates, rejected: counts.rejected, finished: counts.finished,
                    problems: problems, error: error),
                status: error == nil ? .ok : .unprocessableContent)
        }
        func feed(_ buffer: ByteBuffer, into current: inout ImportPipeline) async throws {
            let batches = buffer.withUnsafeReadableBytes { raw in
                current.feed(raw.assumingMemoryBound(to: UInt8.self))
            }
            keep(current.takeProblems())
            _ = try await current.commit(batches, to: store, device: device)
        }
        // The body's first bytes, however the network split them: the format is told from them.
        var head = UploadHead()
        /// Starts the pipeline on the gathered head and feeds it the chunks held so far.
        func start() async throws {
            let bytes = head.bytes
            guard !bytes.isEmpty else { return }
            guard let format = named ?? ImportFormat.detect(head: bytes.prefix(4096)) else {
                throw APIError(.unsupportedMediaType, ImportFormat.undetected(head: bytes, hint: "?format="))
            }
            // Always read from the start: a resent body is known to be the same file only at its
            // end, and skipping records on the word of its length and first bytes once answered a
            // different file "finished" with records never stored. What the first try stored
            // counts as duplicates; the job's row (one per length and head) is brought up to date.
            var current = ImportPipeline(
                format: format, fingerprint: head.fingerprint(length: request.headers[.contentLength]), now: now)
            pipeline = current
            for held in head.take() {
                try await feed(held, into: &current)
                pipeline = current
                if let failure = current.failure { throw failure }
            }
        }
        do {
            for try await buffer in request.body {
                read += Int64(buffer.readableBytes)
                guard read <= limit else {
                    throw ImportFailure(
                        "the body is larger than \(limit) bytes (serve --max-import-bytes); the points before were "
                            + "imported, split the file or use `bgtrack import`")
                }
                guard var current = pipeline else {
                    if head.add(buffer) { try await start() }
                    continue
                }
                try await feed(buffer, into: &current)
                pipeline = current
                if let failure = current.failure { throw failure }
            }
            if pipeline == nil { try await start() }
            guard var current = pipeline else {
                throw APIError(.badRequest, "the body is empty; send the file as the request body")
            }
            _ = try await current.commit(current.finish(), to: store, device: device)
            keep(current.takeProblems())
            pipeline = current
            if let failure = current.failure { throw failure }
            context.logger.info(
                "import stored",
                metadata: [
                    "device": "\(device)", "format": "\(current.formatName)", "added": "\(current.checkpoint.added)",
                    "duplicates": "\(current.checkpoint.duplicates)", "rejected": "\(current.checkpoint.rejected)",
                ])
            metrics.recordSamples(
                protocol: IngestSource.imported.rawValue, accepted: current.checkpoint.added,
                duplicates: current.checkpoint.duplicates, rejected: current.checkpoint.rejected)
            return try answer(current, error: nil)
        } catch let failure as ImportFailure {
            guard var current = pipeline else { throw APIError(.badRequest, failure.message) }
            keep(current.takeProblems())
            return try answer(current, error: failure.message)
        }
    }
}

/// The first ``UploadHead/size`` bytes of an import's body, gathered from however many chunks
/// the network delivered them in, and the chunks themselves until the pipeline starts.
struct UploadHead {
    static let size = 64 << 10

    private(set) var bytes: [UInt8] = []
    private var held: [ByteBuffer] = []

    /// Holds `buffer`; true once the head is whole (the pipeline can start). Chunks of white space
    /// before the file's first byte are dropped, so a body of spaces holds nothing.
    mutating func add(_ buffer: ByteBuffer) -> Bool {
        if bytes.isEmpty, buffer.readableBytesView.allSatisfy(XMLTokenizer.isWhitespace) {
            return false
        }
        held.append(buffer)
        // The head starts at the file's first byte that is not white space, wherever it fell.
        var view = buffer.readableBytesView[...]
        if bytes.isEmpty { view = view.drop(while: XMLTokenizer.isWhitespace) }
        let missing = Self.size - bytes.count
        if missing > 0 { bytes += view.prefix(missing) }
        return bytes.count >= Self.size
    }

    /// The chunks held, in order; the head keeps its bytes.
    mutating func take() -> [ByteBuffer] {
        defer { held.removeAll() }
        return held
    }

    /// Names the import's row: SHA-256 of the declared length and the head, the same however the
    /// body was split. A chunked upload (no length) gets a row of its own.
    func fingerprint(length: String?) -> String {
        guard let length else { return "upload " + Tokens.mint(prefix: "imp") }
        return "upload " + SHA256.hex(digest: SHA256.digest(Array(length.utf8) + [0] + bytes))
    }
}

import BackgroundCore
import Crypto
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
    /// Records passed over unread because an earlier try of the same file (same `Import-Id` or
    /// `Repr-Digest`, same first bytes) had committed them; their points are in the counts above,
    /// which are the whole file's. 0 when the body was read from its start.
    var skipped: Int
    /// How the body was read when it was not simply from its start, or why it was read from its
    /// start when the client may have hoped for a resume.
    var note: String?
    /// The first ``ImportRoute/maxProblems`` problems, each with its position.
    var problems: [String]
    var error: String?
}

enum ImportRoute {
    static let maxProblems = 100
}

/// Imports (`POST /v1/devices/{id}/imports`): a device's own file through the import pipeline.
struct ImportController: Sendable {
    let imports: any ImportStore
    let auth: Authenticator
    let clock: ServerClock
    let metrics: ServerMetrics
    /// `serve --max-import-bytes`.
    let maxImportBytes: Int64

    init(_ environment: TrackServerEnvironment) {
        imports = environment.store
        auth = environment.auth
        clock = environment.clock
        metrics = environment.metrics
        maxImportBytes = environment.configuration.maxImportBytes
    }

    func addRoutes(to router: Router<TrackRequestContext>) {
        router.post("/v1/devices/{id}/imports", use: importFile)
    }

    /// `POST /v1/devices/{id}/imports[?format=gpx|kml|geojson|takeout|owntracks-rec]`: the file as the
    /// body (not multipart, not compressed), streamed through the same pipeline as `bgtrack import`.
    /// Only the device's own token (or session) may import into it, as only it may upload.
    func importFile(_ request: Request, context: some RequestContext) async throws -> Response {
        let device = try context.parameters.require("id")
        let writer = try await auth.writer(token: Authenticator.bearer(request, allowQuery: false))
        guard writer == device else {
            throw APIError(.forbidden, "this token belongs to another device; a device imports only into itself")
        }
        let encoding = request.headers[.contentEncoding]?.lowercased() ?? "identity"
        guard encoding == "identity" || encoding.isEmpty else {
            throw APIError(
                .unsupportedMediaType,
                "Content-Encoding \"\(encoding.prefix(40))\" is not supported for imports; send the file uncompressed")
        }
        let limit = maxImportBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw APIError(
                .contentTooLarge,
                "the file is \(length) bytes, more than \(limit) (serve --max-import-bytes); split it or use "
                    + "`bgtrack import`",
                headers: [.connection: "close"])
        }
        let identity = try ImportIdentity(request.headers)
        // The earlier try of this import, when the client named it: a resume needs its digest.
        let saved: ImportCheckpoint? =
            if let fingerprint = identity.fingerprint, identity.digest != nil {
                try await imports.importCheckpoint(device: device, fingerprint: fingerprint)
            } else {
                nil
            }
        var body = BodyDigest(expecting: saved.flatMap { $0.finished ? nil : $0.prefix })
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
        /// Records skipped on the word of the earlier try; `nil` when read from the start.
        var resumed: Int?
        var note: String?
        func keep(_ found: [ImportProblem]) {
            for problem in found where problems.count < ImportRoute.maxProblems { problems.append(problem.message) }
        }
        func answer(_ pipeline: ImportPipeline, error: String?) throws -> Response {
            let counts = pipeline.checkpoint
            return try Response.json(
                ImportAnswer(
                    format: pipeline.formatName, points: counts.points, added: counts.added,
                    duplicates: counts.duplicates, rejected: counts.rejected, finished: counts.finished,
                    skipped: resumed ?? 0, note: note, problems: problems, error: error),
                status: error == nil ? .ok : .unprocessableContent)
        }
        /// Commits `batches`, each checkpoint naming the declared digest and the body's bytes so far.
        func commit(_ batches: [ImportBatch], of current: inout ImportPipeline) async throws {
            let prefix = body.prefix
            let stamped = batches.map { batch in
                var batch = batch
                batch.checkpoint.digest = identity.digestText
                batch.checkpoint.prefix = prefix
                return batch
            }
            _ = try await current.commit(stamped, to: imports, device: device)
        }
        func feed(_ buffer: ByteBuffer, into current: inout ImportPipeline) async throws {
            let batches = buffer.withUnsafeReadableBytes { raw in
                current.feed(raw.assumingMemoryBound(to: UInt8.self))
            }
            keep(current.takeProblems())
            try await commit(batches, of: &current)
        }
        /// The body is not the one whose records the resume skipped: the records it completed are
        /// stored, then the job's row starts over, so the next try reads the file from its start.
        func notTheSameFile(_ current: inout ImportPipeline) async throws -> ImportFailure {
            try await commit(current.stop(), of: &current)
            keep(current.takeProblems())
            pipeline = current
            let fingerprint = current.checkpoint.fingerprint
            _ = try await imports.commitImport(
                [], device: device,
                checkpoint: ImportCheckpoint(fingerprint: fingerprint, format: current.checkpoint.format), at: now)
            context.logger.info(
                "import resume refused: the body's first bytes differ",
                metadata: ["device": "\(device)", "job": "\(LogText.bounded(fingerprint))"])
            return ImportFailure(
                "the body does not start with the \(body.expected?.bytes ?? 0) bytes the earlier try of this import "
                    + "sent, though it declared the same Repr-Digest, so the \(resumed ?? 0) records it skipped may "
                    + "not be this file's; the records read are stored, the job was reset and is not finished: send "
                    + "the file again and it is read from its start")
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
            // Read from the start unless the client declared the digest the earlier try declared
            // (and that try is unfinished): skipping records on the word of the body's length and
            // first bytes once answered a different file "finished" with records never stored. A
            // resume is checked twice: the body must start with the bytes the earlier try's
            // records lay in, and the whole body must match the digest before the job is
            // finished. Read from the start, what an earlier try stored counts as duplicates.
            let fingerprint = identity.fingerprint ?? head.fingerprint(length: request.headers[.contentLength])
            var resume: ImportCheckpoint?
            if let saved, saved.records > 0 {
                if saved.digest != identity.digestText {
                    note =
                        "an earlier \(saved.finished ? "import" : "try") under this Import-Id declared another "
                        + "Repr-Digest (another file): read from the first record"
                } else if saved.finished {
                    note = "this file was imported before: read again, what it stored counts as duplicates"
                } else if saved.format != format.rawValue {
                    note = "an earlier try of this import was read as \(saved.format): read from the first record"
                } else if body.expected == nil || body.matched == false {
                    note = "the body does not start as the earlier try's did: read from the first record"
                } else {
                    resume = saved
                    resumed = saved.records
                    note = "resumed after record \(saved.records) (byte \(saved.bytes)) of an earlier try of this file"
                }
                context.logger.info(
                    "import of a named file", metadata: ["device": "\(device)", "note": "\(note ?? "")"])
            }
            if resume == nil { body.expected = nil }
            var current = ImportPipeline(format: format, fingerprint: fingerprint, now: now, resume: resume)
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
                body.add(buffer)
                if var current = pipeline, body.expected != nil, body.matched == false {
                    throw try await notTheSameFile(&current)
                }
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
            if body.expected != nil, body.matched != true { throw try await notTheSameFile(&current) }
            let whole = Array(body.hasher.finalize())
            if let declared = identity.digest, whole != declared {
                // Not the file it said it was (cut short, changed, or a wrong header): what it
                // holds is stored, and the job is not marked finished.
                try await commit(current.stop(), of: &current)
                keep(current.takeProblems())
                pipeline = current
                throw ImportFailure(
                    "the body did not match its Repr-Digest: its SHA-256 is \(ImportIdentity.text(sha256: whole)) "
                        + "(\(read) bytes), the header said \(identity.digestText ?? ""); the records read are stored "
                        + "and the import is not marked finished: send the whole file with the digest of its bytes")
            }
            try await commit(current.finish(), of: &current)
            keep(current.takeProblems())
            pipeline = current
            if let failure = current.failure { throw failure }
            context.logger.info(
                "import stored",
                metadata: [
                    "device": "\(device)", "format": "\(current.formatName)", "added": "\(current.checkpoint.added)",
                    "duplicates": "\(current.checkpoint.duplicates)", "rejected": "\(current.checkpoint.rejected)",
                ])
            // This request's rows: a resume's counts carry the earlier try's, already counted.
            let before = resumed == nil ? nil : saved
            metrics.recordSamples(
                protocol: IngestSource.imported.rawValue, accepted: current.checkpoint.added - (before?.added ?? 0),
                duplicates: current.checkpoint.duplicates - (before?.duplicates ?? 0),
                rejected: current.checkpoint.rejected - (before?.rejected ?? 0))
            return try answer(current, error: nil)
        } catch let failure as ImportFailure {
            guard var current = pipeline else { throw APIError(.badRequest, failure.message) }
            keep(current.takeProblems())
            return try answer(current, error: failure.message)
        }
    }
}

/// The SHA-256 of an import's body as it streams, every byte (white space before the file and
/// records a resume skips included), and the check of the earlier try's first bytes.
struct BodyDigest {
    private(set) var hasher = SHA256()
    private(set) var count: Int64 = 0
    /// The earlier try's `<bytes> <hex>` (``ImportCheckpoint/prefix``) while a resume depends on it.
    var expected: (bytes: Int64, hex: String)?
    /// Whether the body's first `expected.bytes` hashed to `expected.hex`; `nil` until that many came.
    private(set) var matched: Bool?

    init(expecting prefix: String?) {
        let parts = prefix?.split(separator: " ") ?? []
        if parts.count == 2, let bytes = Int64(parts[0]), bytes > 0 { expected = (bytes, String(parts[1])) }
    }

    mutating func add(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { raw in
            var rest = raw[...]
            if let expected, matched == nil, count + Int64(rest.count) >= expected.bytes {
                let head = rest.prefix(Int(expected.bytes - count))
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: head))
                count += Int64(head.count)
                rest = rest.dropFirst(head.count)
                matched = hasher.finalize().hex == expected.hex
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: rest))
            count += Int64(rest.count)
        }
    }

    /// `<bytes> <hex>` of the body so far: what a batch committed now lies in.
    var prefix: String { "\(count) \(hasher.finalize().hex)" }
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
        return "upload " + SHA256.hash(data: Array(length.utf8) + [0] + bytes).hex
    }
}

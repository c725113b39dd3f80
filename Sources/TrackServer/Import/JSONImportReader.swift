import BackgroundCore

/// Reads every JSON export: Takeout `Records.json`, the on-device Timeline export (Android's
/// object with `semanticSegments` / `rawSignals`, iOS's top-level array) and GeoJSON. Which one a
/// file is follows from the arrays the splitter finds, so one reader serves them all.
struct JSONImportReader: ImportReader {
    private var splitter = JSONRecordSplitter()

    var skipBefore: Int {
        get { splitter.skipBefore }
        set { splitter.skipBefore = newValue }
    }

    var recordsRead: Int { splitter.recordCount }

    /// The kinds of records seen, for the summary ("Takeout Records.json").
    private(set) var kinds: Set<JSONRecordSplitter.Kind> = []

    private(set) var failure: ImportFailure?

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord] {
        let pieces = splitter.feed(chunk)
        failure = splitter.failure
        var records: [ImportRecord] = []
        records.reserveCapacity(pieces.count)
        for piece in pieces where piece.position.record >= splitter.skipBefore {
            kinds.insert(piece.kind)
            records.append(ImportRecord(position: piece.position, outcome: Self.decode(piece)))
        }
        return records
    }

    mutating func finish() -> [ImportRecord] {
        guard failure == nil else { return [] }
        do {
            try splitter.finish()
        } catch {
            failure = error
        }
        return []
    }

    static func decode(_ piece: JSONRecordSplitter.Piece) -> Result<[TrackSample], SampleProblem> {
        if let problem = piece.problem { return .failure(SampleProblem(message: problem)) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(piece.bytes)
        } catch {
            return .failure(SampleProblem(message: "is not valid JSON (\(error.message) of the record)"))
        }
        do throws(SampleProblem) {
            switch piece.kind {
            case .locations: return .success(try TakeoutRecords.points(value))
            case .semanticSegments, .element: return .success(try TakeoutTimeline.segmentPoints(value))
            case .rawSignals: return .success(try TakeoutTimeline.signalPoints(value))
            case .features: return .success(try GeoJSONFeature.points(value))
            }
        } catch {
            return .failure(error)
        }
    }

    /// What the file turned out to be, for the summary.
    var formatName: String {
        if kinds.contains(.locations) { return "Google Takeout Records.json" }
        if kinds.contains(.features) { return "GeoJSON" }
        if kinds.contains(.element) { return "Google Timeline export (iOS)" }
        if !kinds.isEmpty { return "Google Timeline export" }
        return "JSON"
    }
}

import BackgroundCore

/// Where a record sits in an imported file, for messages ("record 12,345 at byte 1,234,567").
public struct ImportPosition: Hashable, Sendable, CustomStringConvertible {
    /// 0-based: the record's ordinal among the file's records (array elements, track points, lines).
    public var record: Int
    /// Where the record starts in the file.
    public var byte: Int64
    /// 1-based line, for line-based formats (OwnTracks `.rec`).
    public var line: Int?
    /// The archive entry the record is in (a zip's), its byte counted in that entry.
    public var entry: String?

    public init(record: Int, byte: Int64, line: Int? = nil, entry: String? = nil) {
        self.record = record
        self.byte = byte
        self.line = line
        self.entry = entry
    }

    public var description: String {
        var base = "record \(ImportPosition.grouped(record + 1)) at byte \(ImportPosition.grouped(Int(byte)))"
        if let line { base += " (line \(ImportPosition.grouped(line)))" }
        return entry.map { "\($0): \(base)" } ?? base
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}

/// One record a reader found: its points, or why it cannot be imported. A record may hold no
/// point (a Takeout `rawSignals` Wi-Fi scan, an OwnTracks `.rec` line of another `_type`) or many
/// (a Timeline segment's `timelinePath`).
struct ImportRecord: Sendable {
    var position: ImportPosition
    var outcome: Result<[TrackSample], SampleProblem>
    /// What the record's points lost and why, when they are kept without a field that could not
    /// be read (a GPX `<ele>` that is no number): reported, not counted as refused.
    var notes: [String] = []
}

/// A problem that stops the reading (the file's structure is broken, so no later record can be
/// trusted); the records before it stay imported.
public struct ImportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}

/// A reader of one format, fed the file's bytes chunk by chunk (sans-IO: the caller reads the file
/// or the request body), answering the records each chunk completed.
///
/// A broken structure does not throw away the records found before it in the same chunk: they are
/// answered, ``failure`` is set, and later input is ignored.
protocol ImportReader {
    /// Records before this index are skipped without being decoded (a resumed import).
    var skipBefore: Int { get set }
    /// Why reading stopped, once it did.
    var failure: ImportFailure? { get }
    /// What the file turned out to be ("Google Takeout Records.json", "GPX", …).
    var formatName: String { get }
    /// Records met so far, skipped ones included: where the next file's numbering starts in an
    /// archive of several (``ZipImportReader``).
    var recordsRead: Int { get }
    /// The records that `chunk` completed, in file order.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord]
    /// The end of the file: the last records; sets ``failure`` when it ends mid-structure (truncated).
    mutating func finish() -> [ImportRecord]
}

extension TrackSample {
    /// An imported point: keyed by time and position like every protocol without sample ids, so
    /// the same point imported twice, or imported after the phone uploaded it, is one row.
    static func imported(
        time: Instant, latitude: Double, longitude: Double, accuracy: Double? = nil,
        verticalAccuracy: Double? = nil, altitude: Double? = nil, speed: Double? = nil, course: Double? = nil
    ) -> TrackSample {
        imported(
            SampleValues(
                time: time, latitude: latitude, longitude: longitude, accuracy: accuracy,
                verticalAccuracy: verticalAccuracy, altitude: altitude, speed: speed, course: course))
    }

    /// An imported point from its values, with the clients' "unknown" sentinels made `nil`.
    static func imported(_ values: SampleValues) -> TrackSample {
        let values = values.withZeroAccuraciesAsUnknown.withoutUnknownSentinels
        return TrackSample(
            key: positionKey(time: values.time, latitude: values.latitude, longitude: values.longitude),
            values: values, source: .imported)
    }
}

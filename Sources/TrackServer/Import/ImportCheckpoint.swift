/// How far an import of one file into one device got, committed with each batch of its rows, so
/// a killed import resumes where its last batch ended and its counts stay exact.
public struct ImportCheckpoint: Hashable, Sendable {
    /// Identifies the file (``ImportFingerprint``); one checkpoint per device and file.
    public var fingerprint: String
    public var format: String
    /// Records read and decided (stored, duplicate or rejected): a resume skips this many.
    public var records: Int
    /// Where the last committed record started.
    public var bytes: Int64
    /// Points found in those records.
    public var points: Int
    /// Rows the import added, and points the device already had (this file before, another file,
    /// the phone's own upload).
    public var added: Int
    public var duplicates: Int
    /// Records and points refused, each reported with its position.
    public var rejected: Int
    /// The whole file was read.
    public var finished: Bool
    /// The body's SHA-256 as its client declared it (`Repr-Digest`, `sha-256=:…:`), `nil` when it
    /// declared none: a later try under the same id resumes only with the same one.
    public var digest: String?
    /// `<bytes> <SHA-256 hex>` of the body's first bytes when the batch was committed, which hold
    /// every record counted: a resume skips those records only when its body starts with the same.
    public var prefix: String?

    public init(
        fingerprint: String, format: String, records: Int = 0, bytes: Int64 = 0, points: Int = 0, added: Int = 0,
        duplicates: Int = 0, rejected: Int = 0, finished: Bool = false, digest: String? = nil, prefix: String? = nil
    ) {
        self.fingerprint = fingerprint
        self.format = format
        self.records = records
        self.bytes = bytes
        self.points = points
        self.added = added
        self.duplicates = duplicates
        self.rejected = rejected
        self.finished = finished
        self.digest = digest
        self.prefix = prefix
    }
}

import BackgroundCore

/// A line-based import format: its lines become records one by one (``LineImportReader``).
protocol LineFormat {
    /// The format's name in the summary ("OwnTracks .rec").
    static var name: String { get }
    /// What a line over 1 MiB is not, for its message ("not a .rec line").
    static var notALine: String { get }
    /// The line's points, or why it is refused; `nil` when the line is no record (a header).
    mutating func decode(_ line: ArraySlice<UInt8>, number: Int) -> Result<[TrackSample], SampleProblem>?
}

/// Reads a line-based format (OwnTracks `.rec`, GeoLife `.plt`): one record a line, blank lines
/// skipped, a line over 1 MiB refused without being kept; nothing stops the file.
struct LineImportReader<Format: LineFormat>: ImportReader {
    var skipBefore = 0
    static var maxLine: Int { 1 << 20 }

    private var format: Format
    private var line: [UInt8] = []
    private var lineStart: Int64 = 0
    private var lineNumber = 0
    private var overflow = false
    private var offset: Int64 = 0
    private var recordCount = 0

    /// Every line stands alone: nothing stops the file.
    let failure: ImportFailure? = nil

    init(_ format: Format) {
        self.format = format
    }

    var formatName: String { Format.name }
    var recordsRead: Int { recordCount }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord] {
        var records: [ImportRecord] = []
        var start = 0
        for index in 0..<chunk.count where chunk[index] == 0x0A {
            appendLine(chunk, start..<index)
            if let record = endLine() { records.append(record) }
            lineStart = offset + Int64(index) + 1
            start = index + 1
        }
        appendLine(chunk, start..<chunk.count)
        offset += Int64(chunk.count)
        return records
    }

    mutating func finish() -> [ImportRecord] {
        endLine().map { [$0] } ?? []
    }

    private mutating func appendLine(_ chunk: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard !range.isEmpty, !overflow else { return }
        guard line.count + range.count <= Self.maxLine else {
            overflow = true
            line = []
            return
        }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[range]))
    }

    private mutating func endLine() -> ImportRecord? {
        lineNumber += 1
        defer {
            line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
            overflow = false
        }
        var content = line[...]
        if lineNumber == 1, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if content.last == 0x0D { content = content.dropLast() }
        guard overflow || content.contains(where: { !XMLTokenizer.isWhitespace($0) }) else { return nil }
        let outcome: Result<[TrackSample], SampleProblem>
        if overflow {
            outcome = .failure(SampleProblem(message: "is longer than 1 MiB; \(Format.notALine)"))
        } else if let decoded = format.decode(content, number: lineNumber) {
            outcome = decoded
        } else {
            return nil
        }
        let position = ImportPosition(record: recordCount, byte: lineStart, line: lineNumber)
        recordCount += 1
        guard position.record >= skipBefore else { return nil }
        return ImportRecord(position: position, outcome: outcome)
    }
}

import BackgroundCore

/// Reads the OwnTracks Recorder's `.rec` files (one month of one device): one message a line,
/// `2015-03-08T11:53:42Z<TAB>*                 <TAB>{"_type":"location",…}` (the Recorder's
/// storage format; the middle column is the topic or `*`). Locations become points through the
/// same field rules as OwnTracks HTTP ingest; other `_type`s (transitions, waypoints, cards) are
/// no points and no error.
struct OwnTracksRecReader: ImportReader {
    var skipBefore = 0
    static let maxLine = 1 << 20

    private var line: [UInt8] = []
    private var lineStart: Int64 = 0
    private var lineNumber = 0
    private var overflow = false
    private var offset: Int64 = 0
    private var recordCount = 0

    /// Every line stands alone: nothing stops a `.rec` file.
    let failure: ImportFailure? = nil

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
        let position = ImportPosition(record: recordCount, byte: lineStart, line: lineNumber)
        recordCount += 1
        guard position.record >= skipBefore else { return nil }
        if overflow {
            return ImportRecord(
                position: position, outcome: .failure(SampleProblem(message: "is longer than 1 MiB; not a .rec line")))
        }
        return ImportRecord(position: position, outcome: Self.decode(content))
    }

    static func decode(_ line: ArraySlice<UInt8>) -> Result<[TrackSample], SampleProblem> {
        // The JSON starts at the first "{" after the second tab; the columns before are the time
        // the Recorder stored it and the topic.
        guard let firstTab = line.firstIndex(of: 0x09),
            let secondTab = line[(firstTab + 1)...].firstIndex(of: 0x09)
        else {
            return .failure(
                SampleProblem(message: "is not \"TIME<TAB>TOPIC<TAB>JSON\" (a .rec line of the OwnTracks Recorder)"))
        }
        let json = Array(line[(secondTab + 1)...])
        let value: JSONValue
        do {
            try JSONBody.checkDepth(json)
            value = try JSONParser.parse(json)
        } catch let error as JSONParser.Failure {
            return .failure(
                SampleProblem(message: "is not valid JSON after the second tab (\(error.message) of the JSON)"))
        } catch {
            return .failure(SampleProblem(message: "its JSON is nested more than \(JSONBody.maxDepth) levels deep"))
        }
        guard case .string(let type) = value["_type"] else {
            return .failure(SampleProblem(message: "field \"_type\" must be a string such as \"location\""))
        }
        guard type == "location" else { return .success([]) }
        do throws(SampleProblem) {
            var sample = try OwnTracksParser.fields(of: value)
            sample.source = .imported
            return .success([sample])
        } catch {
            return .failure(error)
        }
    }
}

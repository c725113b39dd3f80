/// Cuts a JSON document into its records as the bytes arrive, without parsing anything else.
///
/// An export is one huge JSON value (a 1 GB Takeout `Records.json` is one object), so no JSON
/// library's whole-document decode fits in bounded memory. The records sit in a few known arrays,
/// though: `locations` (Takeout `Records.json`), `semanticSegments` and `rawSignals` (the on-device
/// Timeline export), `features` (GeoJSON), or a top-level array (the iOS Timeline export). This
/// splitter only follows strings and brackets, byte by byte, and hands each element of those arrays
/// out as its own bytes, which ``JSONParser`` (the ingest routes' parser) then reads. Memory is one
/// record, whatever the file; a record larger than ``maxRecordBytes`` or nested deeper than
/// ``maxRecordDepth`` is reported and skipped, never buffered or recursed into.
///
/// Kept for memory, not speed, so `bgtrack-bench parse` does not time it (issue 42): no library
/// here reads one JSON document in bounded memory (`JSONDecoder` needs the whole file in memory).
struct JSONRecordSplitter {
    /// Which array a record came from, which says how to read it.
    enum Kind: Hashable, Sendable {
        case locations, semanticSegments, rawSignals, features
        /// An element of a top-level array (the iOS Timeline export).
        case element
    }

    /// One record's bytes, or why they were not kept.
    struct Piece {
        var kind: Kind
        var position: ImportPosition
        var bytes: [UInt8]
        var problem: String?
    }

    static let recordKeys: [[UInt8]: Kind] = [
        Array("locations".utf8): .locations, Array("semanticSegments".utf8): .semanticSegments,
        Array("rawSignals".utf8): .rawSignals, Array("features".utf8): .features,
    ]

    var maxRecordBytes = 8 << 20
    var maxRecordDepth = 32
    /// Records before this index are counted but not copied (a resumed import).
    var skipBefore = 0
    /// Records found so far.
    private(set) var recordCount = 0
    /// Bytes consumed so far.
    private(set) var offset: Int64 = 0

    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false
    private var ended = false
    private var topIsArray = false
    private var expectKey = false
    private var capturingKey = false
    private var key: [UInt8] = []
    private var lastKey: [UInt8] = []
    /// The depth inside the record array (its elements start there), and what it holds.
    private var container: (depth: Int, kind: Kind)?

    private var inRecord = false
    private var scalarRecord = false
    private var capturing = false
    private var recordPosition = ImportPosition(record: 0, byte: 0)
    private var recordProblem: String?
    private var buffer: [UInt8] = []

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Why the document cannot be read on, once it cannot.
    private(set) var failure: ImportFailure?

    /// The records `chunk` completed; on a broken structure, those before it, with ``failure`` set.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [Piece] {
        guard failure == nil else { return [] }
        var pieces: [Piece] = []
        do {
            try scan(chunk, into: &pieces)
        } catch {
            failure = error
        }
        return pieces
    }

    private mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>, into pieces: inout [Piece]) throws(ImportFailure) {
        var captureStart = 0
        var index = 0
        let count = chunk.count
        while index < count {
            let byte = chunk[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == Self.backslash {
                    escaped = true
                } else if byte == Self.quote {
                    inString = false
                    if capturingKey {
                        capturingKey = false
                        expectKey = false
                        lastKey = key
                    }
                } else if capturingKey, key.count < 64 {
                    key.append(byte)
                }
                index += 1
                continue
            }
            if let container, depth == container.depth {
                if inRecord, scalarRecord, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                    inRecord = false
                    capturing = false
                    pieces.append(piece(problem: "must be a JSON object, got a bare value"))
                } else if !inRecord, !Self.isWhitespace(byte), byte != UInt8(ascii: ","), byte != UInt8(ascii: "]") {
                    startRecord(at: index, byte: byte, kind: container.kind)
                    captureStart = index
                }
            }
            switch byte {
            case Self.quote:
                inString = true
                if depth == 1, !topIsArray, expectKey {
                    capturingKey = true
                    key.removeAll(keepingCapacity: true)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard !ended else { throw failure("content after the end of the JSON document", at: index) }
                depth += 1
                if depth == 1 {
                    started = true
                    topIsArray = byte == UInt8(ascii: "[")
                    if topIsArray { container = (1, .element) } else { expectKey = true }
                } else if depth == 2, !topIsArray, container == nil, byte == UInt8(ascii: "["),
                    let kind = Self.recordKeys[lastKey]
                {
                    container = (2, kind)
                }
                if inRecord, let container, depth - container.depth > maxRecordDepth, recordProblem == nil {
                    recordProblem = "is nested more than \(maxRecordDepth) levels deep; no export needs that many"
                    capturing = false
                    buffer = []
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { throw failure("a closing bracket without an opening one", at: index) }
                depth -= 1
                if let current = container {
                    if inRecord, !scalarRecord, depth == current.depth {
                        if capturing { append(chunk, from: captureStart, through: index) }
                        inRecord = false
                        capturing = false
                        pieces.append(piece(problem: nil))
                    } else if depth < current.depth {
                        container = nil
                    }
                }
                if depth == 0 { ended = true }
            case UInt8(ascii: ","):
                if depth == 1, !topIsArray { expectKey = true }
            default:
                if depth == 0, !Self.isWhitespace(byte) {
                    if !started, offset + Int64(index) < 3, [0xEF, 0xBB, 0xBF].contains(byte) {
                        break  // a UTF-8 byte order mark
                    }
                    throw failure(
                        ended
                            ? "content after the end of the JSON document"
                            : "this is not JSON: it must start with { or [", at: index)
                }
            }
            index += 1
        }
        if inRecord, capturing, captureStart < count {
            append(chunk, from: captureStart, through: count - 1)
        }
        offset += Int64(count)
    }

    /// The end of the document: fails when it is cut short.
    func finish() throws(ImportFailure) {
        guard started else { throw ImportFailure("the file holds no JSON document (it is empty or only whitespace)") }
        guard depth == 0, !inString else {
            let inside = inRecord ? " inside \(recordPosition)" : ""
            throw ImportFailure(
                "the JSON ends at byte \(ImportPosition.grouped(Int(offset)))\(inside) before its last "
                    + "brackets closed: the file is truncated (an interrupted download or copy?); the records "
                    + "before it were imported, get the complete file and import it again to add the rest")
        }
    }

    private mutating func startRecord(at index: Int, byte: UInt8, kind: Kind) {
        inRecord = true
        scalarRecord = byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
        recordPosition = ImportPosition(record: recordCount, byte: offset + Int64(index))
        recordCount += 1
        recordProblem = nil
        capturing = !scalarRecord && recordPosition.record >= skipBefore
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        currentKind = kind
    }

    private var currentKind: Kind = .element

    private mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int, through end: Int) {
        guard end >= start else { return }
        if buffer.count + (end - start + 1) > maxRecordBytes {
            recordProblem =
                "is larger than \(maxRecordBytes >> 20) MiB, far more than any location record holds (the file may "
                + "be another kind of JSON, or damaged there); it is skipped and the records after it imported"
            capturing = false
            buffer = []
            return
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...end]))
    }

    private mutating func piece(problem: String?) -> Piece {
        let skipped = recordPosition.record < skipBefore
        let bytes = buffer
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        return Piece(
            kind: currentKind, position: recordPosition, bytes: skipped ? [] : bytes,
            problem: skipped ? nil : (problem ?? recordProblem))
    }

    private func failure(_ message: String, at index: Int) -> ImportFailure {
        ImportFailure(
            "\(message) at byte \(ImportPosition.grouped(Int(offset) + index)); the records before it were imported")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

import BackgroundCore
import LocationLog

/// Reads a zip archive as it streams, local header after local header, never holding it: Google
/// Takeout's download, or any zip of location files. Each entry that is a location file (by its
/// name: `.gpx`, `.kml`, `.tcx`, `.plt`, `.rec`, `.geojson`, and `.json` files of Location History
/// or Timeline, such as `Records.json`) is inflated and read by its format's reader; every other
/// entry (Takeout's other products, `archive_browser.html`, `Settings.json`) is skipped unread.
///
/// Records are numbered across the entries, so a resumed import skips the same ones, and each
/// position names its entry. Stored (method 0) and deflated (method 8) entries are read, with or
/// without a data descriptor (sizes after the data) and with ZIP64 sizes; an encrypted entry, or
/// another method, stops the archive with a message saying which entry.
struct ZipImportReader: ImportReader {
    var skipBefore = 0
    private(set) var failure: ImportFailure?
    private(set) var recordsRead = 0
    /// The entries read, for the summary.
    private var imported: [String] = []

    private enum State {
        /// Gathering a local header (or finding the central directory: the end of the entries).
        case header
        /// An entry's data; `remaining` compressed bytes when the header gave its size.
        case data(remaining: Int64?)
        /// The data descriptor after a deflated entry of unknown size.
        case descriptor(zip64: Bool)
        case end
    }

    private var state = State.header
    private var held: [UInt8] = []
    /// Bytes of the archive taken so far.
    private var offset: Int64 = 0
    /// The entry being read, if it is a location file.
    private var entry: Entry?

    private struct Entry {
        var name: String
        var inflater: RawInflater?
        var reader: any ImportReader
        /// Records of the entries before it.
        var base: Int
    }

    var formatName: String {
        imported.isEmpty ? "zip" : "zip (" + imported.joined(separator: ", ") + ")"
    }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord] {
        guard failure == nil else { return [] }
        var records: [ImportRecord] = []
        var input = UnsafeRawBufferPointer(chunk)[...]
        do throws(ImportFailure) {
            while !input.isEmpty, failure == nil {
                try step(&input, into: &records)
            }
        } catch {
            failure = error
        }
        return records
    }

    mutating func finish() -> [ImportRecord] {
        guard failure == nil else { return [] }
        switch state {
        case .end: return []
        case .header where held.isEmpty && offset > 0 && entry == nil:
            // No central directory after the last entry: cut short, but every entry it held was read.
            failure = ImportFailure(
                "the zip archive ends at byte \(ImportPosition.grouped(Int(offset))) without its central directory: "
                    + "it is truncated (an interrupted download?); the entries before were imported, get the "
                    + "complete archive and import it again to add the rest")
        default:
            failure = ImportFailure(
                "the zip archive ends at byte \(ImportPosition.grouped(Int(offset))) inside "
                    + (entry.map { "entry \($0.name)" } ?? "an entry")
                    + ": it is truncated (an interrupted download?); the points before were imported, get the "
                    + "complete archive and import it again to add the rest")
        }
        return []
    }

    // MARK: - Steps

    private mutating func step(_ input: inout Slice<UnsafeRawBufferPointer>, into records: inout [ImportRecord])
        throws(ImportFailure)
    {
        switch state {
        case .end:
            offset += Int64(input.count)
            input = input[input.endIndex...]
        case .header:
            try readHeader(&input)
            records += pendingRecords
            pendingRecords = []
        case .data(let remaining):
            let take = remaining.map { Int(min(Int64(input.count), $0)) } ?? input.count
            let used = try entryData(UnsafeRawBufferPointer(rebasing: input.prefix(take)), into: &records)
            input = input.dropFirst(used)
            offset += Int64(used)
            let ended = entry?.inflater?.finished == true
            if used == 0, take > 0, !ended {
                throw ImportFailure(
                    "zip entry \(entry?.name ?? "?") is damaged: its deflate data stops making progress")
            }
            if let remaining {
                let left = remaining - Int64(used)
                if left == 0 {
                    endEntry(into: &records)
                    state = .header
                } else if ended {
                    // The deflate data ended before its stated size: the rest of it is skipped.
                    endEntry(into: &records)
                    state = .data(remaining: left)
                } else {
                    state = .data(remaining: left)
                }
            } else if ended {
                let zip64 = entryIsZip64
                endEntry(into: &records)
                state = .descriptor(zip64: zip64)
            }
        case .descriptor(let zip64):
            // [signature] crc32, compressed size, uncompressed size (8 bytes each in ZIP64).
            let need = 4 + 4 + (zip64 ? 16 : 8)
            guard gather(&input, count: need) else { return }
            let signed = held.starts(with: [0x50, 0x4B, 0x07, 0x08])
            let length = need - (signed ? 0 : 4)
            // Bytes after the descriptor go back to the header's turn.
            let rest = Array(held[length...])
            offset += Int64(length)
            held = rest
            state = .header
        }
    }

    /// Whether the current entry's header carried ZIP64 sizes (its descriptor's are 8 bytes each).
    private var entryIsZip64 = false

    /// Adds bytes from `input` to `held` until it holds `count`; whether it does.
    private mutating func gather(_ input: inout Slice<UnsafeRawBufferPointer>, count: Int) -> Bool {
        let missing = count - held.count
        if missing > 0 {
            let taken = input.prefix(missing)
            held += taken
            input = input.dropFirst(taken.count)
        }
        return held.count >= count
    }

    private func uint16(_ at: Int) -> Int { Int(held[at]) | Int(held[at + 1]) << 8 }
    private func uint32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(held[at + $1]) << (8 * $1) } }
    private func uint64(_ bytes: ArraySlice<UInt8>) -> Int64 {
        bytes.prefix(8).enumerated().reduce(0) { $0 | Int64($1.element) << (8 * $1.offset) }
    }

    private mutating func readHeader(_ input: inout Slice<UnsafeRawBufferPointer>) throws(ImportFailure) {
        guard gather(&input, count: 4) else { return }
        switch uint32(0) {
        case 0x0403_4B50: break
        case 0x0201_4B50, 0x0605_4B50, 0x0606_4B50:
            // The central directory: every entry has been read.
            offset += Int64(held.count)
            held = []
            state = .end
            return
        default:
            throw ImportFailure(
                "byte \(ImportPosition.grouped(Int(offset))) of the zip archive is not an entry's header: the archive "
                    + "is damaged there; the entries before were imported")
        }
        guard gather(&input, count: 30) else { return }
        let nameLength = uint16(26)
        let extraLength = uint16(28)
        guard gather(&input, count: 30 + nameLength + extraLength) else { return }
        let flags = uint16(6)
        let method = uint16(8)
        var compressed = Int64(uint32(18))
        let name = String(decoding: held[30..<30 + nameLength], as: UTF8.self)
        entryIsZip64 = false
        // ZIP64: the sizes are in the extra field 0x0001 (uncompressed, then compressed).
        var extra = held[(30 + nameLength)...]
        while extra.count >= 4 {
            let id = Int(extra[extra.startIndex]) | Int(extra[extra.startIndex + 1]) << 8
            let size = Int(extra[extra.startIndex + 2]) | Int(extra[extra.startIndex + 3]) << 8
            let body = extra.dropFirst(4).prefix(size)
            if id == 0x0001 {
                entryIsZip64 = true
                if compressed == 0xFFFF_FFFF, body.count >= 16 { compressed = uint64(body.dropFirst(8)) }
            }
            extra = extra.dropFirst(4 + size)
        }
        offset += Int64(held.count)
        held = []
        guard compressed >= 0 else {
            throw ImportFailure("zip entry \(name) has a ZIP64 size past 2^63 bytes: the archive is damaged there")
        }
        let sizeFollows = flags & 0x08 != 0
        let wanted = !name.hasSuffix("/") && Self.isLocationFile(name)
        if wanted {
            if flags & 0x01 != 0 {
                throw ImportFailure("zip entry \(name) is encrypted: extract it with its password and import the file")
            }
            guard method == 0 || method == 8 else {
                throw ImportFailure(
                    "zip entry \(name) is compressed with method \(method), not deflate: extract it and import the file"
                )
            }
            guard method == 8 || !sizeFollows else {
                throw ImportFailure(
                    "zip entry \(name) is stored without its size in its header, which cannot be read as it streams: "
                        + "extract it and import the file")
            }
            startEntry(name, deflated: method == 8)
        } else if sizeFollows {
            // Skipping an entry of unknown size still means inflating it to find its end.
            guard method == 8 else {
                throw ImportFailure(
                    "zip entry \(name) is stored without its size in its header, so the entries after it cannot be "
                        + "found as the archive streams: extract the archive and import its files")
            }
            entry = Entry(name: name, inflater: try Self.inflater(), reader: SkippedEntry(), base: recordsRead)
        } else {
            entry = nil
        }
        if !sizeFollows, compressed == 0 {
            // An empty entry: nothing follows its header.
            var ended: [ImportRecord] = []
            if entry != nil { endEntry(into: &ended) }
            pendingRecords += ended
            state = .header
        } else {
            state = .data(remaining: sizeFollows ? nil : compressed)
        }
    }

    /// Records an empty entry's reader answered at its end, handed over with the next step's.
    private var pendingRecords: [ImportRecord] = []

    private static func inflater() throws(ImportFailure) -> RawInflater {
        do {
            return try RawInflater()
        } catch {
            throw ImportFailure("cannot start zlib to inflate the zip archive: \(error)")
        }
    }

    private mutating func startEntry(_ name: String, deflated: Bool) {
        let lower = name.lowercased()
        let format: ImportFormat =
            lower.hasSuffix(".plt")
            ? .plt
            : lower.hasSuffix(".rec")
                ? .rec
                : lower.hasSuffix(".json") || lower.hasSuffix(".geojson") ? .json : .xml
        var reader = format.makeReader()
        reader.skipBefore = max(0, skipBefore - recordsRead)
        entry = Entry(name: name, inflater: deflated ? try? Self.inflater() : nil, reader: reader, base: recordsRead)
        imported.append(name)
    }

    /// Gives the entry's bytes to its reader (inflated first when deflated); returns how many of
    /// `bytes` belonged to the entry.
    private mutating func entryData(_ bytes: UnsafeRawBufferPointer, into records: inout [ImportRecord])
        throws(ImportFailure) -> Int
    {
        guard var current = entry else { return bytes.count }
        defer { entry = current }
        var found: [ImportRecord] = []
        let used: Int
        if let inflater = current.inflater {
            do {
                used = try inflater.inflate(bytes) { piece in
                    found += current.reader.feed(piece.assumingMemoryBound(to: UInt8.self))
                }
            } catch {
                throw ImportFailure("zip entry \(current.name) is damaged: \(error)")
            }
        } else {
            found = current.reader.feed(bytes.assumingMemoryBound(to: UInt8.self))
            used = bytes.count
        }
        records += found.map { Self.numbered($0, in: current) }
        if let broken = current.reader.failure {
            throw ImportFailure("zip entry \(current.name): \(broken.message)")
        }
        return used
    }

    private mutating func endEntry(into records: inout [ImportRecord]) {
        guard var current = entry else { return }
        entry = nil
        records += current.reader.finish().map { Self.numbered($0, in: current) }
        if let broken = current.reader.failure {
            failure = ImportFailure("zip entry \(current.name): \(broken.message)")
        }
        recordsRead = current.base + current.reader.recordsRead
    }

    private static func numbered(_ record: ImportRecord, in entry: Entry) -> ImportRecord {
        var record = record
        record.position.record += entry.base
        record.position.entry = entry.name
        return record
    }

    /// Whether an entry's name is a location file the import reads.
    static func isLocationFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        if [".gpx", ".kml", ".tcx", ".plt", ".rec", ".geojson"].contains(where: lower.hasSuffix) { return true }
        guard lower.hasSuffix(".json") else { return false }
        return ["location history", "timeline", "records.json", "semantic"].contains(where: lower.contains)
    }
}

/// The reader of an entry skipped but inflated to find its end: reads nothing.
private struct SkippedEntry: ImportReader {
    var skipBefore = 0
    let failure: ImportFailure? = nil
    let formatName = "skipped"
    let recordsRead = 0
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> [ImportRecord] { [] }
    mutating func finish() -> [ImportRecord] { [] }
}

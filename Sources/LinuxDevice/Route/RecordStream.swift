import Foundation
import LocationLog

/// Reads a file in 64 KiB chunks and hands out records ending at a delimiter byte, so memory
/// stays bounded by the longest record, not the file. Each record is checked to be UTF-8.
struct RecordStream {
    let path: String
    let delimiter: UInt8
    let maximumRecord: Int
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var offset: UInt64 = 0
    private var finished = false
    /// 1-based number of the record last returned (the line number for '\n').
    private(set) var recordNumber = 0

    init(path: String, delimiter: UInt8, maximumRecord: Int = 1 << 20) throws(RouteError) {
        self.path = path
        self.delimiter = delimiter
        self.maximumRecord = maximumRecord
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RouteError("cannot open route file \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
    }

    /// The next record as text without the delimiter, or `nil` at the end of the file.
    mutating func next() throws(RouteError) -> String? {
        while true {
            if let end = buffer[bufferStart...].firstIndex(of: delimiter) {
                let record = buffer[bufferStart..<end]
                let recordOffset = offset
                offset += UInt64(end - bufferStart + 1)
                bufferStart = end + 1
                recordNumber += 1
                return try decode(record, at: recordOffset)
            }
            if finished {
                guard bufferStart < buffer.count else { return nil }
                let record = buffer[bufferStart...]
                bufferStart = buffer.count
                recordNumber += 1
                return try decode(record, at: offset)
            }
            if buffer.count - bufferStart > maximumRecord {
                throw RouteError(
                    "route file \(path) has a record over \(maximumRecord) bytes without a "
                        + (delimiter == 10 ? "line break" : "'>'") + " near byte \(offset); it is not a route file")
            }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 64 * 1024) ?? Data()
            } catch {
                throw RouteError("cannot read route file \(path): \(error.localizedDescription)")
            }
            if bufferStart > 0 {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    private func decode(_ bytes: ArraySlice<UInt8>, at recordOffset: UInt64) throws(RouteError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if recordOffset == 0, bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw RouteError("route file \(path) is UTF-16; save it as UTF-8")
        }
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] < 0x80 { index += 1 }
        let byte = index < bytes.endIndex ? bytes[index] : 0
        let position = recordOffset + UInt64(index - bytes.startIndex)
        throw RouteError(
            "route file \(path) is not UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) at offset "
                + "\(position) (record \(recordNumber)); save the file as UTF-8")
    }
}

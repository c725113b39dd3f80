import Foundation
import TrackServer

/// What identifies a file for resuming: SHA-256 of its size and sixteen 64 KiB samples spread
/// from its first to its last byte.
///
/// Not a hash of every byte: that would read a 1 GB file a second time before the import could
/// start. Resuming needs to know "the same file as the stopped import", and a file whose size,
/// head, tail and fourteen slices between all match is that file (an export regenerated or
/// appended to changes its size and tail). Even a wrong match could not duplicate a row, since
/// every imported point is keyed by device, time and position; it could only skip records, and
/// `--restart` reads them all again.
enum ImportFingerprint {
    static let slices = 16
    static let sliceSize = 64 << 10

    static func of(_ handle: FileHandle, size: Int64) throws -> String {
        var material = Array(String(size).utf8)
        let span = max(0, size - Int64(sliceSize))
        for index in 0..<slices {
            let start = span * Int64(index) / Int64(slices - 1)
            try handle.seek(toOffset: UInt64(start))
            material += [UInt8](try handle.read(upToCount: sliceSize) ?? Data())
            if size <= Int64(sliceSize) { break }
        }
        try handle.seek(toOffset: 0)
        return SHA256.digest(material).map { String(format: "%02x", $0) }.joined()
    }
}

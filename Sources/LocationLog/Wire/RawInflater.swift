internal import CZlib

/// Inflates raw deflate data (RFC 1951, a zip entry's) piece by piece, as it streams: what a zip
/// archive read without holding it needs. The output of each piece is handed over at once, so
/// memory is one piece and zlib's window, however large the entry.
///
/// A class: zlib's stream state holds pointers into itself and must not move; it lives in its own
/// allocation, freed with the inflater.
public final class RawInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// The deflate stream ended; bytes after it are not its.
    public private(set) var finished = false
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    public init() throws(Gzip.Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Gzip.Failure(description: "deflate: inflateInit2 failed with status \(status)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, giving `emit` each piece of output. Returns how many bytes of `input`
    /// belonged to the deflate stream: all of them, unless it ended within them (``finished``).
    /// - Throws: when the data is not deflate.
    public func inflate(_ input: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) -> Void) throws(Gzip.Failure)
        -> Int
    {
        guard !finished, let base = input.baseAddress, !input.isEmpty else { return 0 }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        var status: Int32 = Z_OK
        repeat {
            let produced = output.withUnsafeMutableBufferPointer { buffer -> Int in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                status = CZlib.inflate(stream, Z_NO_FLUSH)
                return buffer.count - Int(stream.pointee.avail_out)
            }
            if produced > 0 { output.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[..<produced])) } }
        } while status == Z_OK && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
        let used = input.count - Int(stream.pointee.avail_in)
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        switch status {
        case Z_STREAM_END:
            finished = true
            return used
        case Z_OK, Z_BUF_ERROR:
            return used
        default:
            throw Gzip.Failure(description: "deflate: the data is not deflate (zlib status \(status))")
        }
    }
}

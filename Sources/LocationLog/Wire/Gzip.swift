internal import CZlib
public import Foundation

/// gzip (RFC 1952) via the system zlib, for `Content-Encoding: gzip` bodies.
///
/// Foundation on Linux has no compression API, so this wraps zlib directly.
public enum Gzip {
    /// zlib refused the data or ran out of memory.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Compresses `data` into a gzip member.
    public static func compress(_ data: Data, level: Int32 = 6) throws(Failure) -> Data {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer instead of a zlib one.
        var status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(description: "gzip: deflateInit2 failed with status \(status)") }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, UInt(data.count))) + 32)
        var input = data
        let outputCapacity = output.count
        status = input.withUnsafeMutableBytes { (inBytes: UnsafeMutableRawBufferPointer) -> Int32 in
            output.withUnsafeMutableBytes { (outBytes: UnsafeMutableRawBufferPointer) -> Int32 in
                stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(inBytes.count)
                stream.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(outputCapacity)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "gzip: deflate failed with status \(status)") }
        output.count = Int(stream.total_out)
        return output
    }

    /// Decompresses a gzip body, refusing to produce more than `limit` bytes (a "zip bomb" guard).
    /// A body of several gzip members is their concatenation; bytes after the last member that
    /// are not gzip make the body unreadable.
    ///
    /// - Throws: `Failure` when the data is not gzip, is truncated, has trailing bytes that are not
    ///   a gzip member, or inflates beyond `limit`.
    public static func decompress(_ data: Data, limit: Int = 64 << 20) throws(Failure) -> Data {
        var stream = z_stream()
        var status = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(description: "gzip: inflateInit2 failed with status \(status)") }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = data
        let inputCount = input.count
        status = input.withUnsafeMutableBytes { (inBytes: UnsafeMutableRawBufferPointer) -> Int32 in
            stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_in = uInt(inputCount)
            var result: Int32 = Z_OK
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    result = inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return Z_MEM_ERROR }
                // RFC 1952 §2.2: a gzip file is a series of members; the data is all of them.
                // Bytes after a member must be another member, or the body is refused (never
                // silently cut short).
                if result == Z_STREAM_END, stream.avail_in > 0 {
                    guard inflateReset(&stream) == Z_OK else { return Z_STREAM_ERROR }
                    result = Z_OK
                }
            } while result == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return result
        }
        if output.count > limit {
            throw Failure(description: "gzip: body inflates to more than \(limit) bytes; send smaller batches")
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: "gzip: body is not complete gzip data (zlib status \(status))")
        }
        return output
    }
}

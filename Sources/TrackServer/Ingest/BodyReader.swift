import CompressNIO
import Hummingbird
import NIOCore

/// Reads a request body with two caps: the bytes on the wire and, for `Content-Encoding: gzip`,
/// the bytes after decompression (a 10 MB gzip bomb inflating to gigabytes stops at the cap).
struct BodyReader: Sendable {
    var maxBodyBytes: Int
    var maxDecompressedBytes: Int

    func read(_ request: Request) async throws(APIError) -> [UInt8] {
        var buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            throw APIError(
                .contentTooLarge,
                "the body is larger than \(maxBodyBytes) bytes; send fewer samples per request (halve the batch)"
            )
        }
        let encoding = request.headers[.contentEncoding]?.lowercased().trimmingCharacters(in: .whitespaces)
        switch encoding {
        case nil, "", "identity":
            return Array(buffer.readableBytesView)
        case "gzip", "x-gzip":
            return try gunzip(&buffer)
        case .some(let other):
            throw APIError(.unsupportedMediaType, "Content-Encoding \"\(other)\" is not supported; use gzip or none")
        }
    }

    func gunzip(_ buffer: inout ByteBuffer) throws(APIError) -> [UInt8] {
        do {
            let inflated = try buffer.decompress(with: .gzip(), maxSize: maxDecompressedBytes)
            return Array(inflated.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw APIError(
                .contentTooLarge,
                "the body inflates to more than \(maxDecompressedBytes) bytes; send fewer samples per request"
            )
        } catch {
            throw APIError(.badRequest, "the body says Content-Encoding: gzip but is not valid gzip data")
        }
    }
}

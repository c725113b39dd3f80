import Foundation
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

/// Reads a request body with two caps: the bytes on the wire and, for `Content-Encoding: gzip`,
/// the bytes after decompression (a 10 MB gzip bomb inflating to gigabytes stops at the cap).
struct BodyReader: Sendable {
    var maxBodyBytes: Int
    var maxDecompressedBytes: Int

    func read(_ request: Request) async throws(APIError) -> [UInt8] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            // The rest of the body is not read: `Connection: close` tells the client, and the
            // connection guard drains a bounded amount first so a client still writing sees the 413.
            throw APIError(
                .contentTooLarge,
                "the body is larger than \(maxBodyBytes) bytes; send fewer samples per request (halve the batch)",
                headers: [.connection: "close"]
            )
        }
        let encoding = request.headers[.contentEncoding]?.lowercased().trimmingCharacters(in: .whitespaces)
        switch encoding {
        case nil, "", "identity":
            return Array(buffer.readableBytesView)
        case "gzip", "x-gzip":
            return try gunzip(Data(buffer.readableBytesView))
        case .some(let other):
            throw APIError(
                .unsupportedMediaType, "Content-Encoding \"\(other.prefix(40))\" is not supported; use gzip or none")
        }
    }

    func gunzip(_ data: Data) throws(APIError) -> [UInt8] {
        do {
            return Array(try Gzip.decompress(data, limit: maxDecompressedBytes))
        } catch {
            let status: HTTPResponse.Status =
                error.description.contains("inflates to more") ? .contentTooLarge : .badRequest
            throw APIError(status, "Content-Encoding: gzip body refused: \(error.description)")
        }
    }
}

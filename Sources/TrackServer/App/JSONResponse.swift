import Foundation
import HTTPTypes
import Hummingbird
import LocationLog
import Logging

extension Response {
    /// A JSON response; encoding our own response types cannot fail, a failure is a 500 with a message.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `json(_:)` for the native route's answer, without `JSONEncoder` when it is not needed
    /// (``BatchResponse/plainJSON()``): the same bytes either way.
    static func json(batch answer: BatchResponse) throws -> Response {
        guard let bytes = answer.plainJSON() else { return try json(answer) }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

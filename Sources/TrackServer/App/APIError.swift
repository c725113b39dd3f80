import Foundation
import HTTPTypes
public import Hummingbird
import Logging

/// An error answered to the client as `{"error": "…"}` with an HTTP status.
///
/// Messages say what was wrong, why, and how to fix it; they never contain a token.
public struct APIError: Error, HTTPResponseError, Equatable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{\"error\":\"error\"}".utf8)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, message, headers: [.wwwAuthenticate: "Bearer realm=\"bgtrack\""])
    }
}

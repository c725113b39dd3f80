public import Foundation

extension UploadOutcome {
    /// Maps an HTTP answer to `POST /v1/batches` to an outcome (docs/protocol.md §Acknowledgement). Every shell that
    /// speaks HTTP shares it: the Linux device's transport and the iOS shell's background session.
    public init(httpStatus status: Int, body: Data, retryAfter: String?) {
        let message = Self.serverMessage(body)
        switch status {
        case 200:
            // The error shape has no batch fields, so the lenient batch reader would take it for
            // an empty success.
            if let error = try? JSONDecoder().decode(ErrorResponse.self, from: body) {
                self = .unexpectedResponse(message: "HTTP 200 with an error body: \(error.error)")
                return
            }
            guard let response = try? JSONDecoder().decode(BatchResponse.self, from: body), response.result == "ok"
            else {
                self = .unexpectedResponse(message: "HTTP 200 without a batch response: \(message)")
                return
            }
            self = .acknowledged(response.acknowledgement)
        case 400: self = .badRequest(message: message)
        case 401, 403: self = .unauthorized(status: status, message: message)
        case 413: self = .tooLarge
        case 429: self = .rateLimited(retryAfter: retryAfter.flatMap(Int64.init).map { .seconds($0) })
        case 500...599: self = .serverError(status: status, message: message)
        case 402...499: self = .clientError(status: status, message: message)
        default: self = .unexpectedResponse(message: "HTTP \(status): \(message)")
        }
    }

    /// The server's `{"error": …}` text, or the start of the body.
    public static func serverMessage(_ body: Data) -> String {
        // Bounded like the raw-body case: the text goes into the diagnostics log and notifications.
        if let error = try? JSONDecoder().decode(ErrorResponse.self, from: body) {
            return String(error.error.prefix(BatchResponse.maximumReasonLength))
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "(empty body)" : text
    }
}

public import Foundation

#if canImport(FoundationNetworking)
    // On Linux URLRequest lives in FoundationNetworking; Foundation re-exports it on Apple platforms.
    public import FoundationNetworking
#endif

extension BatchRequest {
    /// The path of the batch endpoint below the server's base URL.
    public static let path = ["v1", "batches"]

    /// The body of `POST /v1/batches`: this batch as JSON, gzip-compressed when `gzip` (then the
    /// request says `Content-Encoding: gzip`).
    /// - Throws: the encoder's or `Gzip.Failure` when the batch cannot be encoded (the samples stay
    ///   pending; the caller reports it as an unexpected response).
    public func httpBody(gzip: Bool) throws -> Data {
        let json = try JSONEncoder().encode(self)
        return gzip ? try Gzip.compress(json) : json
    }

    /// `POST <server>/v1/batches` with the device token and the body's headers, but no body: the
    /// one builder every shell uses (the Linux device sets ``httpBody(gzip:)`` as the body, the iOS
    /// shell's background session uploads the same bytes from a file).
    ///
    /// - Parameters:
    ///   - server: the base URL (`/v1/batches` is appended).
    ///   - token: the device token, sent as `Authorization: Bearer` (never logged).
    ///   - gzip: whether the body is gzip-compressed.
    ///   - timeout: the whole request's limit; `nil` keeps URLSession's default (a background
    ///     session applies its own).
    public static func urlRequest(server: URL, token: String, gzip: Bool, timeout: Duration? = nil) -> URLRequest {
        var request = URLRequest(url: path.reduce(server) { $0.appendingPathComponent($1) })
        request.httpMethod = "POST"
        if let timeout { request.timeoutInterval = Double(timeout.components.seconds) }
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if gzip { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// ``urlRequest(server:token:gzip:timeout:)`` with this batch as its body.
    /// - Throws: as ``httpBody(gzip:)``.
    public func urlRequest(server: URL, token: String, gzip: Bool, timeout: Duration? = nil) throws -> URLRequest {
        var request = Self.urlRequest(server: server, token: token, gzip: gzip, timeout: timeout)
        request.httpBody = try httpBody(gzip: gzip)
        return request
    }
}

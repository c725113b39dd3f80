import Foundation
import HTTPTypes
import NIOCore

/// `GET /openapi.yaml`: every route, its credentials and every status it can answer.
///
/// The document is the file `openapi.yaml` beside this one, a resource of the module
/// (`Bundle.module`), served byte for byte. Kept by hand next to the routes; `ReadingRouteTests`
/// checks every route is listed and that the answer is the file, and schemathesis
/// (`.ci/schemathesis.sh`) checks live responses against it.
enum OpenAPIDocument {
    static let resourceName = "openapi"
    static let resourceExtension = "yaml"

    /// The file's bytes, read once (at the first request: the server does not read the file per
    /// request), or why they could not be read.
    static let bytes: Result<ByteBuffer, APIError> = load(from: .module)

    /// Reads the document from `bundle`; a missing or unreadable file is a 500 that says where it
    /// should be (an install that copied the executable without its resource bundle).
    static func load(from bundle: Bundle) -> Result<ByteBuffer, APIError> {
        guard let url = bundle.url(forResource: resourceName, withExtension: resourceExtension) else {
            return .failure(
                APIError(
                    .internalServerError,
                    "openapi.yaml is not in the server's resource bundle (\(bundle.bundlePath)); copy the "
                        + "\(PageAssets.bundleName) folder next to the bgtrack executable"))
        }
        do {
            return .success(ByteBuffer(bytes: try Data(contentsOf: url)))
        } catch {
            return .failure(
                APIError(.internalServerError, "openapi.yaml could not be read from \(url.path): \(error)"))
        }
    }
}

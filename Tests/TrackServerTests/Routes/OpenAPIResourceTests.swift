import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import TrackServer

/// `GET /openapi.yaml` is the resource file `Sources/TrackServer/App/openapi.yaml`, served as it is.
@Suite("OpenAPI document: the resource file, served byte for byte")
struct OpenAPIResourceTests {
    static let sourceFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/TrackServer/App/openapi.yaml")

    @Test func theServedBytesAreTheFileBytes() async throws {
        let file = try Data(contentsOf: Self.sourceFile)
        let answer = try await TestServer().test { client in
            try await client.executeRequest(uri: "/openapi.yaml", method: .get, headers: [:], body: nil)
        }
        #expect(answer.status == .ok)
        #expect(answer.headers[.contentType] == "application/yaml")
        #expect(
            Data(answer.body.readableBytesView) == file, "served \(answer.body.readableBytes) bytes, file \(file.count)"
        )
        #expect(file.starts(with: Data("openapi: 3.0.3\n".utf8)))
    }

    /// An install that lost the resource bundle answers a 500 that says what is missing and what to
    /// copy, rather than crashing or serving nothing.
    @Test func aBundleWithoutTheFileIsAClearServerError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrack-no-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let bundle = try #require(Bundle(path: empty.path))
        let error = try #require(throws: APIError.self) { try OpenAPIDocument.load(from: bundle).get() }
        #expect(error.status == .internalServerError)
        #expect(error.message.contains("openapi.yaml is not in the server's resource bundle"))
        // The folder SwiftPM writes: the tools package's name and the target's.
        #expect(error.message.contains("BackgroundTrackerTools_TrackServer.resources folder next to"))
    }
}

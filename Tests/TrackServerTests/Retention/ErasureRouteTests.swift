import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrackServer

/// `DELETE /v1/devices/{id}?data=true&confirm={id}` (issue 25 item 4's operator API).
@Suite("Erasure: operator API")
struct ErasureRouteTests {
    @Test func anOperatorErasesADeviceAfterConfirmingItsName() async throws {
        let server = try await SharePageTests.server()
        try await LifecycleContract.fill(server.store, device: "other")
        let other = try await server.store.deviceRowCounts(device: "other")
        #expect((other["sample"] ?? 0) > 0)
        try await server.test { client in
            let link = try await SharePageTests.create(client, body: #"{"device":"iphone-42","kind":"live"}"#)
            let headers = HTTPFields.bearer(TestServer.operatorToken)
            for (uri, status) in [
                ("/v1/devices/iphone-42", HTTPResponse.Status.badRequest),
                ("/v1/devices/iphone-42?data=false", .badRequest),
                ("/v1/devices/iphone-42?data=true", .badRequest),
                ("/v1/devices/iphone-42?data=true&confirm=other", .badRequest),
                ("/v1/devices/nobody?data=true&confirm=nobody", .notFound),
            ] {
                let response = try await client.executeRequest(uri: uri, method: .delete, headers: headers, body: nil)
                #expect(response.status == status, "\(uri): \(response.text)")
            }
            #expect(try await server.sampleCount() == 10, "nothing erased by the refused requests")
            let asDevice = try await client.executeRequest(
                uri: "/v1/devices/iphone-42?data=true&confirm=iphone-42", method: .delete,
                headers: .bearer(TestServer.phoneToken), body: nil)
            #expect(asDevice.status == .forbidden, "a device cannot erase itself through the API")
            let erased = try await client.executeRequest(
                uri: "/v1/devices/iphone-42?data=true&confirm=iphone-42", method: .delete, headers: headers, body: nil)
            #expect(erased.status == .ok, "\(erased.text)")
            let deleted = (erased.json as? [String: Any])?["deleted"] as? [String: Int]
            #expect(deleted?["sample"] == 10 && deleted?["share_link"] == 1 && deleted?["device"] == 1)
            #expect(try await SharePageTests.get(client, link.path).status == .notFound, "its links are gone")
            let track = try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track", method: .get, headers: .bearer(TestServer.phoneToken), body: nil)
            #expect(track.status == .unauthorized, "its token is gone with it")
        }
        #expect(try await server.store.device(named: "iphone-42") == nil)
        #expect(try await server.store.deviceRowCounts(device: "other") == other, "the other device keeps all")
    }
}

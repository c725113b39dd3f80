import BackgroundCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationLogTesting
import Testing

@testable import TrackServer

/// OwnTracks `_type: "encrypted"` messages: decrypted and stored with the device's key, kept aside
/// and refused so the phone keeps them without one (issue 23, item 1).
@Suite("OwnTracks encrypted messages (issue 23, item 1)")
struct OwnTracksEncryptedRouteTests {
    static let location = OwnTracksVectors.all[0]
    static let transition = OwnTracksVectors.all[3]

    static func post(_ body: String, _ server: TestServer) async throws -> TestResponse {
        try await server.test { client in
            try await client.executeRequest(
                uri: "/ingest/owntracks", method: .post,
                headers: .basic(user: "alice", password: server.phoneToken), body: ByteBuffer(text: body))
        }
    }

    @Test func anEncryptedLocationWithTheKeySetIsStoredAndOnTheMap() async throws {
        let server = try await TestServer()
        #expect(try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: Self.location.secret)))
        let response = try await Self.post(Self.location.body, server)
        #expect(response.status == .ok && response.text == "[]")
        let sample = try #require(
            try await server.store.samples(device: "iphone-42", from: .epoch, to: TestServer.start).first)
        #expect(sample.latitude == 31.2304 && sample.longitude == 121.4737)
        #expect(sample.accuracy == 12 && sample.speed == 5 && sample.battery == 0.83 && sample.source == .owntracks)
        #expect(try await server.store.rejectedPoints(device: "iphone-42", limit: 10).isEmpty)
        let track = try await server.test { client in
            try await client.executeRequest(
                uri: "/v1/devices/iphone-42/track?from=1732230000000&to=1732250000000&format=geojson",
                method: .get, headers: .bearer(server.operatorToken), body: nil)
        }
        #expect(track.status == .ok && track.text.contains("121.4737"), "\(track.text)")
    }

    @Test func anEncryptedTransitionIsStoredAsAnEvent() async throws {
        let server = try await TestServer()
        _ = try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: Self.transition.secret))
        let response = try await Self.post(Self.transition.body, server)
        #expect(response.status == .ok && response.text == "[]")
        #expect(try await server.store.eventCount(device: "iphone-42") == 1)
        #expect(try await server.sampleCount() == 0)
    }

    @Test func withoutAKeyTheMessageIsKeptAsideAndRefusedSoThePhoneKeepsIt() async throws {
        let server = try await TestServer()
        let refused = try await Self.post(Self.location.body, server)
        // OwnTracks iOS deletes on 2xx and 4xx, keeps on 5xx; Android re-queues on any non-2xx.
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.text.contains("no OwnTracks key is set for device iphone-42"), "\(refused.text)")
        #expect(try await server.sampleCount() == 0)
        let kept = try await server.store.rejectedPoints(device: "iphone-42", limit: 10)
        #expect(kept.count == 1)
        #expect(kept.first?.source == "owntracks" && kept.first?.raw == Self.location.body)
        #expect(kept.first?.reason.contains("bgtrack device set iphone-42 --owntracks-key") == true)
        // The phone sends it again: refused again, but kept aside once an hour, not every time.
        #expect(try await Self.post(Self.location.body, server).status == .serviceUnavailable)
        #expect(try await server.store.rejectedPoints(device: "iphone-42", limit: 10).count == 1)
        server.clock.advance(by: .seconds(3600))
        #expect(try await Self.post(Self.location.body, server).status == .serviceUnavailable)
        #expect(try await server.store.rejectedPoints(device: "iphone-42", limit: 10).count == 2)
        // Once the operator sets the key, the phone's next attempt is stored.
        _ = try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: Self.location.secret))
        #expect(try await Self.post(Self.location.body, server).status == .ok)
        #expect(try await server.sampleCount() == 1)
        let metrics = await server.environment.metrics.value("bgtrack_quarantined_total", ["protocol": "owntracks"])
        #expect(metrics == 2)
    }

    @Test func aWrongKeyIsRefusedTheSameWayWithItsOwnReason() async throws {
        let server = try await TestServer()
        _ = try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: "not the app's key"))
        let response = try await Self.post(Self.location.body, server)
        #expect(response.status == .serviceUnavailable)
        #expect(response.text.contains("does not open with the OwnTracks key set for this device"))
        #expect(try await server.store.rejectedPoints(device: "iphone-42", limit: 10).count == 1)
        #expect(try await server.sampleCount() == 0)
    }

    /// A server whose machine has no libsodium (a fresh image without it, or a renamed copy): the
    /// message is kept aside with a reason that says what to install, refused with a 503 so the
    /// phone keeps it, and stored once the library is there (issue 37, item 1).
    @Test func withoutLibsodiumTheMessageIsKeptAsideWithWhatToInstallAndNotLost() async throws {
        let missing = SecretBox.load(["/nonexistent/libsodium.so.23"])
        let server = try await TestServer { $0.secretBox = missing }
        #expect(try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: Self.location.secret)))
        let refused = try await Self.post(Self.location.body, server)
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers[.retryAfter] != nil)
        #expect(refused.text.contains("apt-get install libsodium23"), "\(refused.text)")
        let kept = try await server.store.rejectedPoints(device: "iphone-42", limit: 10)
        #expect(kept.count == 1 && kept.first?.raw == Self.location.body)
        #expect(kept.first?.reason.contains("/nonexistent/libsodium.so.23") == true, "\(kept)")
        #expect(try await server.sampleCount() == 0)
        // The same message on a server that has the library (the phone sends it again): stored.
        let restarted = try await TestServer()
        _ = try await restarted.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: Self.location.secret))
        #expect(try await Self.post(Self.location.body, restarted).status == .ok)
        #expect(try await restarted.sampleCount() == 1)
    }

    @Test(arguments: [
        (#"{"_type":"encrypted","data":"!!not base64!!"}"#, "not base64"),
        (#"{"_type":"encrypted","data":"AAEC"}"#, "fewer than a secretbox nonce"),
        (#"{"_type":"encrypted","data":42}"#, "base64 string in \"data\""),
        (#"{"_type":"encrypted"}"#, "base64 string in \"data\""),
    ])
    func anUnreadablePayloadIsKeptAsideAndAnswered200(body: String, reason: String) async throws {
        let server = try await TestServer()
        _ = try await server.store.setOwnTracksKey(device: "iphone-42", OwnTracksKey(secret: "k"))
        let response = try await Self.post(body, server)
        #expect(response.status == .ok && response.text == "[]")
        let kept = try await server.store.rejectedPoints(device: "iphone-42", limit: 10)
        #expect(kept.count == 1 && kept.first?.reason.contains(reason) == true, "\(kept)")
    }

    @Test func aDecryptedMessageThatIsNotAUsableLocationIsKeptAsideInClearText() async throws {
        let server = try await TestServer()
        let key = try OwnTracksKey(secret: "k")
        _ = try await server.store.setOwnTracksKey(device: "iphone-42", key)
        let inner = #"{"_type":"location","lat":95,"lon":2,"tst":1732240000}"#
        let sealed = try OwnTracksEncryption.seal(Array(inner.utf8), key: key)
        let nested = try OwnTracksEncryption.seal(Array(#"{"_type":"encrypted","data":"AAAA"}"#.utf8), key: key)
        for (data, reason) in [(sealed, "latitude 95"), (nested, "holds another encrypted message")] {
            let response = try await Self.post(#"{"_type":"encrypted","data":"\#(data)"}"#, server)
            #expect(response.status == .ok)
            let newest = try #require(try await server.store.rejectedPoints(device: "iphone-42", limit: 1).first)
            #expect(newest.reason.contains(reason), "\(newest.reason)")
        }
        let kept = try await server.store.rejectedPoints(device: "iphone-42", limit: 10)
        #expect(kept.last?.raw == inner)
        let rejected = await server.environment.metrics.value(
            "bgtrack_samples_total", ["protocol": "owntracks", "outcome": "rejected"])
        #expect(rejected == 2)
    }
}

import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import Testing
import TrackServer

@testable import bgtrack

/// `bgtrack device run` names its device from its token (issue 41 item 4): it asks the server at
/// start and refuses, before any upload, a token the server refuses, an operator's token, or a
/// `--name` the token does not belong to (where it used to default to `linux-device` and upload
/// into 403s).
@Suite("device run: the device's name comes from its token")
struct DeviceIdentityTests {
    static func decide(_ status: Int, _ body: String, name: String? = nil) throws -> String {
        try DeviceIdentity.decide(status: status, body: Data(body.utf8), requested: name, server: "http://srv")
    }

    static func refusal(_ status: Int, _ body: String, name: String? = nil) -> String {
        do {
            _ = try decide(status, body, name: name)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func theServersAnswerDecides() throws {
        let own = #"[{"name":"iphone-42","samples":0,"offline":true,"revoked":false}]"#
        #expect(try Self.decide(200, own) == "iphone-42")
        #expect(try Self.decide(200, own, name: "iphone-42") == "iphone-42")
        let other = Self.refusal(200, own, name: "linux-device")
        #expect(other.contains("--name linux-device") && other.contains("belongs to device iphone-42"), "\(other)")
        let operatorList = Self.refusal(200, #"[{"name":"a"},{"name":"b"}]"#)
        #expect(operatorList.contains("not a device token"), "\(operatorList)")
        #expect(Self.refusal(401, #"{"error":"unknown token"}"#).contains("refused the token (401)"))
        #expect(Self.refusal(404, "").contains("not a bgtrack server"))
        #expect(Self.refusal(200, "<html>").contains("not a device list"))
    }

    /// Against a running server: the device token names its device; another device's `--name` and
    /// an operator's token are refused at start, with nothing uploaded.
    @Test func aRealServerNamesTheDeviceOrTheRunIsRefused() async throws {
        let path = LoadRunTests.freshDatabase()
        defer { LoadRunTests.remove(path) }
        let store = try SQLiteTrackStore(path: path, durability: .processCrash)
        let now = Instant(milliseconds: 1_732_244_800_000)
        _ = try await store.addDevice(name: "iphone-42", tokenHash: Tokens.hash("bgd_phone"), at: now)
        try await store.addOperator(name: "ops", tokenHash: Tokens.hash("bgo_ops"), at: now)
        try store.close()
        let answers = try await LoadRunTests.withServers(1, db: path) { ports in
            let server = try #require(URL(string: "http://127.0.0.1:\(ports[0])"))
            func attempt(_ token: String, _ name: String?) async -> String {
                do {
                    return try await DeviceIdentity.resolve(server: server, token: token, requested: name)
                } catch {
                    return "refused: \(error)"
                }
            }
            return [
                await attempt("bgd_phone", nil), await attempt("bgd_phone", "linux-device"),
                await attempt("bgo_ops", nil), await attempt("bgd_nope", nil),
            ]
        }
        #expect(answers[0] == "iphone-42")
        #expect(answers[1].hasPrefix("refused:") && answers[1].contains("iphone-42"), "\(answers[1])")
        #expect(answers[2].hasPrefix("refused:") && answers[2].contains("operator token"), "\(answers[2])")
        #expect(answers[3].hasPrefix("refused:") && answers[3].contains("401"), "\(answers[3])")
    }

    /// Without a server to ask and without `--name`, the run is refused with what to do.
    @Test func anUnreachableServerWithoutANameIsRefused() async throws {
        let server = try #require(URL(string: "http://127.0.0.1:9"))
        await #expect(throws: ValidationError.self) {
            _ = try await DeviceIdentity.resolve(server: server, token: "bgd_phone", requested: nil)
        }
        #expect(try await DeviceIdentity.resolve(server: server, token: "bgd_phone", requested: "phone") == "phone")
    }
}

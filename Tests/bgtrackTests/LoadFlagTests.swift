import ArgumentParser
import LoadGenerator
import Testing

@testable import bgtrack

/// `bgtrack load` flags with malformed, hostile and huge values: a load generator must refuse any
/// server that is not on this machine, and every bound says what is allowed.
@Suite struct LoadFlagTests {
    static let server = ["--server", "http://127.0.0.1:8080"]

    func message(_ arguments: [String]) -> String? { refusal(["load"] + arguments) }

    @Test func aValidCommandParses() throws {
        let command = try #require(
            try BGTrack.parseAsRoot([
                "load", "--server", "http://127.0.0.1:8080", "--server", "http://localhost:8081/", "--devices", "500",
                "--duration", "10m", "--batch", "500", "--protocol", "overland", "--connections", "64",
                "--db", "/tmp/x.sqlite",
            ]) as? LoadCommand)
        #expect(try command.runDuration() == .seconds(600))
        #expect(try command.targets().map(\.port) == [8080, 8081])
        #expect(try command.targets().map(\.address) == ["127.0.0.1", "127.0.0.1"])
        #expect(try command.loadProtocol() == .overland)
    }

    @Test func theServerIsRequired() throws {
        let text = try #require(message(["--devices", "5"]))
        #expect(text.contains("--server is required"), "\(text)")
    }

    @Test(arguments: [
        "http://10.0.0.1:8080", "http://192.168.1.10", "http://example.com:8080", "http://127.0.0.1.evil.example",
        "http://0x7f.0.0.1", "http://2130706433", "http://127.1:8080", "http://[::ffff:127.0.0.1]:80",
        "http://169.254.169.254", "http://0.0.0.0:8080", "http://[2001:db8::1]:8080", "http://127.000.0.1",
        "http://localhost.example:80",
    ])
    func aServerOffThisMachineIsRefused(url: String) throws {
        let text = try #require(message(Self.server.dropLast() + [url]))
        #expect(text.contains("not a loopback address"), "\(text)")
        #expect(text.contains("never point it at someone else's server"), "\(text)")
    }

    @Test func httpsIsRefusedSayingWhy() throws {
        let text = try #require(message(["--server", "https://127.0.0.1:8443"]))
        #expect(text.contains("https") && text.contains("plain HTTP"), "\(text)")
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "does not start with http://"),
        ("ftp://127.0.0.1", "does not start with http://"),
        ("http://127.0.0.1:99999", "port"),
        ("http://127.0.0.1:0", "port"),
        ("http://127.0.0.1:", "port"),
        ("http://127.0.0.1:80a", "port"),
        ("http://127.0.0.1:8080/v1/batches", "path"),
        ("http://127.0.0.1:8080?x=1", "path"),
        ("http://ops:secret@127.0.0.1:8080", "user name or password"),
        ("http://[::1", "not closed"),
        ("http://", "no host"),
        ("http://127.0.0.1 :8080", "spaces"),
        ("http://" + String(repeating: "1", count: 10_000), "longer than 200"),
    ])
    func aMalformedServerURLIsNamed(url: String, problem: String) throws {
        let text = try #require(message(["--server", url]))
        #expect(text.contains(problem), "\(text)")
        #expect(text.count < 600)
        #expect(!text.contains("secret"))
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://LOCALHOST:1/", "http://[::1]:8080", "http://127.255.0.9:65535"])
    func loopbackServersAreAccepted(url: String) throws {
        #expect(message(["--server", url]) == nil)
    }

    @Test func aServerGivenTwiceIsRefused() throws {
        let text = try #require(message(Self.server + Self.server))
        #expect(text.contains("given twice"), "\(text)")
    }

    @Test(arguments: ["0s", "61m", "2h", "3601s", "10", "1.5m", "-5s", "m", "", "99999999999999999999s", "10 m", "10M"])
    func aBadDurationIsRefused(duration: String) throws {
        let text = try #require(message(Self.server + ["--duration=\(duration)"]))
        // An empty value is the parser's "missing value for --duration".
        #expect(text.contains("--duration") && (text.contains("1 second to 1 hour") || duration.isEmpty), "\(text)")
    }

    @Test(arguments: ["1s", "90s", "10m", "1h", "60m"])
    func goodDurationsParse(duration: String) throws {
        #expect(message(Self.server + ["--duration", duration]) == nil)
    }

    @Test(arguments: ["0", "-1", "10001", "99999999999999999999"])
    func aBadDeviceCountIsRefused(count: String) throws {
        let text = try #require(message(Self.server + ["--devices", count]))
        #expect(text.contains("--devices") || text.contains("devices"), "\(text)")
    }

    @Test func fewerDevicesThanServersIsRefused() throws {
        let text = try #require(
            message(["--server", "http://127.0.0.1:1", "--server", "http://127.0.0.1:2", "--devices", "1"]))
        #expect(text.contains("fewer than the 2 servers"), "\(text)")
    }

    @Test(arguments: ["0", "-5", "1001", "99999999999999999999"])
    func aBadBatchIsRefused(batch: String) throws {
        let text = try #require(message(Self.server + ["--batch", batch]))
        #expect(text.contains("batch"), "\(text)")
    }

    @Test(arguments: ["owntracks", "osmand"])
    func aBatchForASinglePointProtocolIsRefused(kind: String) throws {
        let text = try #require(message(Self.server + ["--protocol", kind, "--batch", "5"]))
        #expect(text.contains("one point"), "\(text)")
        #expect(message(Self.server + ["--protocol", kind, "--batch", "1"]) == nil)
        #expect(message(Self.server + ["--protocol", kind]) == nil)
    }

    @Test(arguments: [("0", "between 1 and 1024"), ("1025", "between 1 and 1024"), ("11", "more than --devices")])
    func aBadConnectionCountIsRefused(count: String, problem: String) throws {
        let text = try #require(message(Self.server + ["--devices", "10", "--connections", count]))
        #expect(text.contains(problem), "\(text)")
    }

    @Test func fewerConnectionsThanServersIsRefused() throws {
        let text = try #require(
            message(["--server", "http://127.0.0.1:1", "--server", "http://127.0.0.1:2", "--connections", "1"]))
        #expect(text.contains("each server needs one"), "\(text)")
    }

    @Test func anUnknownProtocolListsTheProtocols() throws {
        let text = try #require(message(Self.server + ["--protocol", "mqtt"]))
        #expect(text.contains("native, overland, owntracks, osmand"), "\(text)")
    }

    @Test(arguments: ["0", "-3", "1000001"])
    func aBadRequestCountIsRefused(count: String) throws {
        let text = try #require(message(Self.server + ["--requests-per-device", count]))
        #expect(text.contains("--requests-per-device"), "\(text)")
    }
}

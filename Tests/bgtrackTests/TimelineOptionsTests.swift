import ArgumentParser
import BackgroundCore
import LocationLog
import Testing
import TrackGeometry
import TrackServer

@testable import bgtrack

/// `bgtrack serve`'s timeline flags: hostile values are refused with the flag named; good ones
/// reach the server's configuration.
@Suite struct TimelineOptionsTests {
    @Test(arguments: [
        (["--stay-radius", "0"], "--stay-radius"), (["--stay-radius", "-5"], "--stay-radius"),
        (["--stay-radius", "nan"], "--stay-radius"), (["--stay-radius", "1e300"], "--stay-radius"),
        (["--stay-minutes", "0"], "--stay-minutes"), (["--stay-minutes", "inf"], "--stay-minutes"),
        (["--stay-minutes", "99999999"], "--stay-minutes"),
        (["--timeline-gap-minutes", "-1"], "--timeline-gap-minutes"),
        (["--timeline-gap-minutes", String(repeating: "9", count: 5000)], "--timeline-gap-minutes"),
        (["--stay-radius", "ten"], "--stay-radius"),
        (["--resting-silence-minutes", "-1"], "--resting-silence-minutes"),
        (["--resting-silence-minutes", "nan"], "--resting-silence-minutes"),
        (["--resting-silence-minutes", "1e9"], "--resting-silence-minutes"),
    ])
    func badValuesNameTheFlag(arguments: [String], flag: String) throws {
        let text = try #require(refusal(["serve"] + arguments))
        #expect(text.contains(flag), "\(text)")
    }

    @Test func goodValuesReachTheConfiguration() throws {
        let serve = try #require(
            try BGTrack.parseAsRoot([
                "serve", "--stay-radius", "150", "--stay-minutes", "7.5", "--timeline-gap-minutes", "12",
                "--no-infer-stays-for-all-clients", "--resting-silence-minutes", "0",
            ]) as? ServeCommand)
        var configuration = ServerConfiguration()
        serve.timeline.apply(to: &configuration)
        #expect(configuration.timelineEnabled)
        #expect(configuration.timeline.timeline.stayRadius == 150)
        #expect(configuration.timeline.timeline.minimumStay == .seconds(450))
        #expect(configuration.timeline.timeline.gapThreshold == .seconds(720))
        #expect(!configuration.timeline.infersStaysForOtherClients)
        #expect(configuration.timeline.timeline.restingSilence == .zero)
        let off = try #require(try BGTrack.parseAsRoot(["serve", "--no-timeline"]) as? ServeCommand)
        off.timeline.apply(to: &configuration)
        #expect(!configuration.timelineEnabled)
        // Every path infers stays across same-place silences unless told not to (issue 38 item 2).
        #expect(configuration.timeline.infersStaysForOtherClients)
        #expect(configuration.timeline.timeline.restingSilence == .seconds(900))
    }
}

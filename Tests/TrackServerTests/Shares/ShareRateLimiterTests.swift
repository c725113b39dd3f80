import BackgroundCore
import Testing
import TrackServer

@Suite("Share rate limiter (virtual time)")
struct ShareRateLimiterTests {
    let start = Instant(milliseconds: 1_732_244_800_000)

    @Test func aKeyGetsItsLimitPerWindowThenWaits() {
        let limiter = ShareRateLimiter()
        for _ in 0..<3 { #expect(limiter.take("addr:1", limit: 3, at: start) == nil) }
        #expect(limiter.take("addr:1", limit: 3, at: start + .seconds(20)) == .seconds(40))
        #expect(limiter.take("addr:2", limit: 3, at: start + .seconds(20)) == nil, "another key has its own window")
        #expect(limiter.take("addr:1", limit: 3, at: start + .seconds(60)) == nil, "a new window")
    }

    @Test func aZeroLimitRefusesEverything() {
        #expect(ShareRateLimiter().take("link:1", limit: 0, at: start) == .seconds(60))
    }

    @Test func aFloodOfAddressesCannotGrowTheTable() {
        var limits = ShareRateLimiter.Limits()
        limits.maxKeys = 100
        let limiter = ShareRateLimiter(limits: limits)
        for index in 0..<100 { #expect(limiter.take("addr:\(index)", limit: 5, at: start) == nil) }
        #expect(limiter.take("addr:new", limit: 5, at: start + .seconds(1)) == .seconds(59), "full: refused")
        #expect(limiter.take("addr:3", limit: 5, at: start + .seconds(1)) == nil, "known keys still count")
        #expect(limiter.keyCount == 100)
        #expect(limiter.take("addr:new", limit: 5, at: start + .seconds(61)) == nil, "ended windows make room")
        #expect(limiter.keyCount == 1)
    }
}

import AppleShadow
import BackgroundCore
import Foundation
import LocationLog
import Testing

@testable import BackgroundTracker

extension ShellSuite {
    /// Opt-in silent audio (issue 10, item 2): off by default (App Review 2.5.4), played only for a
    /// When-In-Use app before iOS 17 that opted in, and restarted after an interruption ends.
    @Suite("Silent audio, opt-in")
    @MainActor
    struct AudioAdapterTests {
        func backgrounded(optIn: Bool, ios: Int = 16) throws -> (ShellHarness, Tracker) {
            let harness = try ShellHarness()
            harness.system.authorization = .authorizedWhenInUse
            let tracker = try harness.tracker(.adaptive, ios: ios, allowsSilentAudio: optIn)
            tracker.didFinishLaunching(nil)
            tracker.start()
            harness.system.applicationState = .background
            tracker.applicationDidEnterBackground()
            return (harness, tracker)
        }

        @Test("without the opt-in nothing touches the audio session")
        func offByDefault() throws {
            let (harness, _) = try backgrounded(optIn: false)
            #expect(!harness.system.trace.contains { $0.hasPrefix("AVAudio") }, "\(harness.system.trace)")
        }

        @Test("with it: playback mixed with others, a looping silent WAV, stopped in the foreground")
        func playsAndStops() throws {
            let (harness, tracker) = try backgrounded(optIn: true)
            let audio = harness.system.trace.filter { $0.hasPrefix("AVAudio") }
            #expect(
                audio == [
                    "AVAudioSession.setCategory AVAudioSessionCategoryPlayback mix=true",
                    "AVAudioSession.setActive true",
                    "AVAudioPlayer(16044 bytes)", "AVAudioPlayer.play loops=-1 volume=0.0",
                ])
            #expect(harness.system.audioPlaying.count == 1)
            harness.system.applicationState = .active
            tracker.applicationWillEnterForeground()
            #expect(harness.system.audioPlaying.isEmpty)
            #expect(!harness.system.audioSessionActive)
        }

        @Test("an interruption stops it; its end starts it again in the background")
        func interruption() throws {
            let (harness, tracker) = try backgrounded(optIn: true)
            let audio = try #require(tracker.audio)
            audio.interrupted(.began)
            #expect(!audio.isPlaying)
            let before = harness.system.trace.filter { $0.hasPrefix("AVAudioPlayer.play") }.count
            audio.interrupted(.ended)
            #expect(audio.isPlaying)
            #expect(harness.system.trace.filter { $0.hasPrefix("AVAudioPlayer.play") }.count == before + 1)
        }

        @Test("iOS 17 keeps a When-In-Use app running with an activity session instead")
        func notOnIOS17() throws {
            let (harness, _) = try backgrounded(optIn: true, ios: 17)
            #expect(!harness.system.trace.contains { $0.hasPrefix("AVAudioPlayer") })
        }
    }
}

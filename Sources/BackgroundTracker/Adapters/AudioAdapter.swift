import BackgroundCore
import Foundation
import LocationLog

#if canImport(UIKit)
    import AVFAudio
#else
    import ShadowAVFAudio
#endif

/// Silent audio, only for an app that opted in (`Configuration.allowsSilentAudio`): App Review
/// guideline 2.5.4 allows background audio for audible content, so this is a review risk the app
/// developer takes knowingly. The strategies ask for it only when nothing else can keep a
/// When-In-Use app running (before iOS 17).
///
/// It plays one second of silence in a loop (or for the requested time) in the `playback`
/// category mixed with other apps' audio, and hands interruptions (a phone call, another app
/// taking the audio session) to the keep-alive machine, which restarts it when they end.
@MainActor
final class AudioAdapter {
    private weak var shell: Tracker?
    private var player: AVAudioPlayer?
    private var observer: (any NSObjectProtocol)?

    init(shell: Tracker) {
        self.shell = shell
        observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.interruptionNotification, object: nil, queue: .main
        ) { [weak self] notification in
            let raw = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt
            MainActor.assumeIsolated { self?.interrupted(raw.flatMap(AVAudioSession.InterruptionType.init(rawValue:))) }
        }
    }

    var isPlaying: Bool { player != nil }

    func play(for duration: Duration?) {
        do {
            let session = AVAudioSession.sharedInstance()
            try session.setCategory(.playback, mode: .default, options: [.mixWithOthers])
            try session.setActive(true)
            let player = try AVAudioPlayer(data: Self.silence)
            // numberOfLoops counts repeats after the first play; -1 loops until stopped.
            player.numberOfLoops = duration.map { max(0, Int(($0 / .seconds(1)).rounded(.up)) - 1) } ?? -1
            player.volume = 0
            guard player.play() else {
                shell?.log(.warning, "silent audio did not start (the audio session refused to play)")
                return
            }
            self.player?.stop()
            self.player = player
        } catch {
            shell?.log(.warning, "silent audio could not start: \(error)")
        }
    }

    func stop() {
        guard let player else { return }
        player.stop()
        self.player = nil
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }

    /// `AVAudioSession.interruptionNotification`: the system stopped (or gave back) the session.
    func interrupted(_ type: AVAudioSession.InterruptionType?) {
        guard let type, player != nil || type == .ended else { return }
        if type == .began { player = nil }
        shell?.deliver(.audioInterruption(began: type == .began))
    }

    /// One second of silence: a 16-bit mono PCM WAV at 8 kHz (16,044 bytes).
    static let silence: Data = {
        let rate: UInt32 = 8_000
        let samples = Data(count: Int(rate) * 2)
        var wav = Data()
        func append(_ text: String) { wav.append(contentsOf: Array(text.utf8)) }
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) }
        }
        append("RIFF")
        append(UInt32(36 + samples.count))
        append("WAVEfmt ")
        append(UInt32(16))
        append(UInt16(1))  // PCM
        append(UInt16(1))  // mono
        append(rate)
        append(rate * 2)  // bytes per second
        append(UInt16(2))  // block align
        append(UInt16(16))  // bits per sample
        append("data")
        append(UInt32(samples.count))
        wav.append(samples)
        return wav
    }()
}

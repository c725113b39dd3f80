/// AVFAudio as the system runs it for one app: the silent clip the app plays (`AVAudioPlayer`,
/// `SystemCall.avfAudio`) and the phone call that interrupts it. A clip plays for its length (or
/// until stopped when it loops); a call stops it and refuses new playback until it ends; playback
/// dies with the process.
///
/// ```swift
/// var audio = AudioSession()
/// let clip = audio.play()        // queue `.audioClipEnded(clip)` at the clip's end
/// audio.clipEnded(clip ?? 0)     // → not playing
/// ```
struct AudioSession: Sendable {
    /// Whether the app's audio plays now (it keeps the app running where the `audio` mode allows).
    private(set) var playing = false
    /// Numbers each `play()`, so the end of an earlier clip does not stop a later one.
    private var clip = 0
    /// A phone call is on: it interrupts the app's audio.
    private(set) var inCall = false

    /// `play()`: the new clip's number, or `nil` during a call (playback refused).
    mutating func play() -> Int? {
        guard !inCall else { return nil }
        playing = true
        clip += 1
        return clip
    }

    /// `stop()`.
    mutating func stop() { playing = false }

    /// The clip numbered `clip` reached its end: it stops unless a newer one plays.
    mutating func clipEnded(_ clip: Int) {
        if clip == self.clip { playing = false }
    }

    /// A phone call begins; `true` if it interrupted the app's audio (the app hears the
    /// interruption).
    mutating func callBegan() -> Bool {
        inCall = true
        guard playing else { return false }
        playing = false
        return true
    }

    /// The call ended.
    mutating func callEnded() { inCall = false }

    /// The process died: its player with it.
    mutating func processEnded() { playing = false }
}

package import BackgroundCore

/// How the simulated user answers Core Location's prompts (the scenario's, from `--auth`):
/// the first prompt (Allow While Using, Allow Once or Don't Allow, with Precise on or off) and
/// the later Always prompt (the upgrade, or the confirmation of provisional Always).
package struct LocationAnswers: Hashable, Sendable {
    package enum FirstPrompt: String, Hashable, Sendable {
        case allowWhileUsing = "allow-while-using"
        case allowOnce = "allow-once"
        case dontAllow = "dont-allow"
        /// The user never answers (the app stays not determined).
        case never
    }

    package var firstPrompt: FirstPrompt
    /// Changes to Always at the Always prompt (else keeps While Using).
    package var acceptsAlways: Bool
    /// Leaves Precise Location on at the first prompt (iOS 14+).
    package var precise: Bool

    package init(firstPrompt: FirstPrompt, acceptsAlways: Bool, precise: Bool = true) {
        self.firstPrompt = firstPrompt
        self.acceptsAlways = acceptsAlways
        self.precise = precise
    }

    /// `--auth`: always = While Using, then Always at the upgrade; when-in-use = While Using, kept
    /// at the upgrade; denied = Don't Allow; not-determined = never answers.
    package init(_ authorization: LocationAuthorization, allowOnce: Bool = false, precise: Bool = true) {
        switch authorization {
        case .always: self.init(firstPrompt: .allowWhileUsing, acceptsAlways: true, precise: precise)
        case .whenInUse:
            self.init(firstPrompt: allowOnce ? .allowOnce : .allowWhileUsing, acceptsAlways: false, precise: precise)
        case .denied: self.init(firstPrompt: .dontAllow, acceptsAlways: false, precise: precise)
        case .notDetermined: self.init(firstPrompt: .never, acceptsAlways: false, precise: precise)
        }
    }
}

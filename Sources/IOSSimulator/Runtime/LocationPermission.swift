import BackgroundCore

/// Core Location's authorisation of one installed app, prompted rather than given ([AD-locauth],
/// docs/ios-policy.md §Contract): a fresh install is not determined; `requestWhenInUseAuthorization` in the
/// foreground shows Allow Once / Allow While Using / Don't Allow (Precise a toggle, iOS 14+);
/// `requestAlwaysAuthorization` from not determined shows that same prompt and, on While Using,
/// grants provisional Always (iOS 13+), confirmed or declined by a later system prompt when the
/// app first gets location in the background; from While Using it may be called once and shows
/// the upgrade prompt. A request fails at once without its usage-description key. Allow Once
/// lapses when the app leaves use. The user's answers are the scenario's (``LocationAnswers``).
struct LocationPermission: Sendable {
    private enum State: Sendable {
        case notDetermined
        case denied
        /// Allow Once: While Using until the app leaves use.
        case once
        case whenInUse(alwaysAsked: Bool)
        /// Reads as Always until the system's confirmation prompt decides it.
        case provisionalAlways
        case always
    }

    /// What a call changed: the new authorisation and Precise setting, and why (for the report).
    struct Change: Sendable {
        var authorization: LocationAuthorization
        var precise: Bool?
        var reason: String
    }

    private var state = State.notDetermined
    private let answers: LocationAnswers
    private let plist: InfoPlist
    private let ios: Int

    init(answers: LocationAnswers, plist: InfoPlist, ios: Int) {
        self.answers = answers
        self.plist = plist
        self.ios = ios
    }

    var authorization: LocationAuthorization {
        switch state {
        case .notDetermined: return .notDetermined
        case .denied: return .denied
        case .once, .whenInUse: return .whenInUse
        case .provisionalAlways, .always: return .always
        }
    }

    var isOnce: Bool { if case .once = state { true } else { false } }

    /// `requestWhenInUseAuthorization()`; `nil` when nothing changes, or a note in `refusal`.
    mutating func requestWhenInUse(inForeground: Bool) -> Result<Change?, Refusal> {
        guard case .notDetermined = state else { return .success(nil) }
        guard plist.hasWhenInUseUsage else { return .failure(.missingKey("NSLocationWhenInUseUsageDescription")) }
        guard inForeground else { return .failure(.notInForeground) }
        return .success(firstPrompt(provisional: false))
    }

    /// `requestAlwaysAuthorization()`.
    mutating func requestAlways(inForeground: Bool) -> Result<Change?, Refusal> {
        switch state {
        case .notDetermined:
            guard plist.hasWhenInUseUsage, plist.hasAlwaysUsage else {
                return .failure(.missingKey("NSLocationAlwaysAndWhenInUseUsageDescription"))
            }
            guard inForeground else { return .failure(.notInForeground) }
            return .success(firstPrompt(provisional: ios >= 13))
        case .whenInUse(alwaysAsked: false):
            guard plist.hasAlwaysUsage else {
                return .failure(.missingKey("NSLocationAlwaysAndWhenInUseUsageDescription"))
            }
            guard inForeground else { return .failure(.notInForeground) }
            state = answers.acceptsAlways ? .always : .whenInUse(alwaysAsked: true)
            return .success(
                answers.acceptsAlways
                    ? Change(authorization: .always, precise: nil, reason: "upgrade prompt: Change to Always Allow")
                    : Change(authorization: .whenInUse, precise: nil, reason: "upgrade prompt: Keep Only While Using"))
        case .whenInUse(alwaysAsked: true):
            return .failure(.alwaysAskedBefore)
        case .denied, .once, .provisionalAlways, .always:
            return .success(nil)
        }
    }

    /// The app gets location in the background: provisional Always meets its confirmation prompt.
    mutating func usedInBackground() -> Change? {
        guard case .provisionalAlways = state else { return nil }
        if answers.acceptsAlways {
            state = .always
            return Change(
                authorization: .always, precise: nil, reason: "provisional Always confirmed: Change to Always")
        }
        state = .whenInUse(alwaysAsked: true)
        return Change(
            authorization: .whenInUse, precise: nil, reason: "provisional Always declined: Keep Only While Using")
    }

    /// The app left use: Allow Once lapses (it is not determined again).
    mutating func leftUse() -> Change? {
        guard case .once = state else { return nil }
        state = .notDetermined
        return Change(authorization: .notDetermined, precise: nil, reason: "Allow Once ended: the app left use")
    }

    /// The user changed the app's setting in Settings (a scenario event), or chose Allow Once.
    mutating func settingsChanged(to authorization: LocationAuthorization, once: Bool = false) {
        switch authorization {
        case .notDetermined: state = .notDetermined
        case .denied: state = .denied
        case .whenInUse: state = once ? .once : .whenInUse(alwaysAsked: true)
        case .always: state = .always
        }
    }

    private mutating func firstPrompt(provisional: Bool) -> Change? {
        let precise = ios >= 14 ? answers.precise : true
        switch answers.firstPrompt {
        case .never:
            return nil
        case .dontAllow:
            state = .denied
            return Change(authorization: .denied, precise: nil, reason: "prompt: Don't Allow")
        case .allowOnce where ios >= 13:
            state = .once
            return Change(authorization: .whenInUse, precise: precise, reason: "prompt: Allow Once")
        case .allowOnce, .allowWhileUsing:
            if provisional {
                state = .provisionalAlways
                return Change(
                    authorization: .always, precise: precise,
                    reason: "prompt: Allow While Using (provisional Always, requested Always)")
            }
            state = .whenInUse(alwaysAsked: false)
            return Change(authorization: .whenInUse, precise: precise, reason: "prompt: Allow While Using")
        }
    }

    /// Why a request showed no prompt.
    enum Refusal: Error, Sendable, CustomStringConvertible {
        case missingKey(String)
        case notInForeground
        case alwaysAskedBefore

        var description: String {
            switch self {
            case .missingKey(let key): return "the request failed at once: the Info.plist lacks \(key)"
            case .notInForeground: return "no prompt: iOS prompts only while the app is in the foreground"
            case .alwaysAskedBefore: return "no prompt: requestAlwaysAuthorization was already called once"
            }
        }
    }
}

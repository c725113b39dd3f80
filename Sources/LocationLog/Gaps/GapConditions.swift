public import BackgroundCore

/// Which gap conditions the system's settings amount to, as the app last heard them: the part of
/// the phone's gap reasons every shell (the iOS app, the simulated iPhone) derives the same way.
///
/// ```swift
/// try store.setGapConditions(
///     GapConditions.of(environment, wanted: .always), among: GapConditions.managed, at: now)
/// ```
public enum GapConditions {
    /// The reasons ``of(_:wanted:)`` decides; the others come from uploads, launches and storage.
    public static let managed: Set<GapReason> = [
        .locationServicesOff, .authorizationLowered, .preciseOff, .lowPowerMode,
    ]

    /// The conditions in effect, each with the phone's detail.
    /// - Parameter wanted: the authorization the app works with; less than it is "lowered"
    ///   (When In Use for an app that needs Always, Never, a lapsed Allow Once).
    public static func of(_ environment: KeepAliveEnvironment, wanted: LocationAuthorization)
        -> [GapReason: String?]
    {
        var active: [GapReason: String?] = [:]
        if !environment.locationServicesEnabled {
            active[.locationServicesOff] = .some(nil)
        }
        if rank(environment.authorization) < rank(wanted) {
            active[.authorizationLowered] = "\(words(wanted)) → \(words(environment.authorization))"
        }
        if !environment.preciseLocation {
            active[.preciseOff] = .some(nil)
        }
        if environment.lowPowerMode {
            active[.lowPowerMode] = .some(nil)
        }
        return active
    }

    private static func rank(_ authorization: LocationAuthorization) -> Int {
        switch authorization {
        case .always: 2
        case .whenInUse: 1
        case .denied, .notDetermined: 0
        }
    }

    private static func words(_ authorization: LocationAuthorization) -> String {
        switch authorization {
        case .always: "Always"
        case .whenInUse: "When In Use"
        case .denied: "Never"
        case .notDetermined: "not asked"
        }
    }
}

import BackgroundCore

/// The policy of one iOS version, read from `PolicyTable` once so the engine does no lookups.
public struct IOSProfile: Hashable, Sendable {
    /// The profiles `bgtrack compare` runs.
    public static let supportedVersions = [6, 12, 16, 17, 18]

    public let major: Int
    private let values: [PolicyKey: Double]

    /// The profile of iOS `major`, with some parameters multiplied by `scales` (`compare
    /// --sensitivity` runs assumptions at ×0.5 and ×2); `nil` for a version the table does not cover.
    public init?(major: Int, scales: [PolicyKey: Double] = [:]) {
        var values: [PolicyKey: Double] = [:]
        for key in PolicyKey.allCases {
            guard let parameter = PolicyTable.parameter(key, ios: major) else { return nil }
            values[key] = parameter.value * (scales[key] ?? 1)
        }
        self.major = major
        self.values = values
    }

    public subscript(_ key: PolicyKey) -> Double { values[key] ?? 0 }

    /// A parameter in seconds as a `Duration`.
    public func duration(_ key: PolicyKey) -> Duration { .milliseconds(Int64((self[key] * 1000).rounded())) }

    public func flag(_ key: PolicyKey) -> Bool { self[key] != 0 }
}

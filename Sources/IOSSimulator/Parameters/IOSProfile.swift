import BackgroundCore

/// The policy of one iOS version, read from `PolicyTable` once so the engine does no lookups.
package struct IOSProfile: Hashable, Sendable {
    /// The profiles `bgtrack compare` runs.
    package static let supportedVersions = [6, 12, 16, 17, 18]

    package let major: Int
    private let values: [PolicyKey: Double]

    /// The profile of iOS `major`, with some parameters multiplied by `scales` (`compare
    /// --sensitivity` runs assumptions at ×0.5 and ×2); `nil` for a version the table does not cover.
    package init?(major: Int, scales: [PolicyKey: Double] = [:]) {
        var values: [PolicyKey: Double] = [:]
        for key in PolicyKey.allCases {
            guard let parameter = PolicyTable.parameter(key, ios: major) else { return nil }
            values[key] = parameter.value * (scales[key] ?? 1)
        }
        self.major = major
        self.values = values
    }

    package subscript(_ key: PolicyKey) -> Double { values[key] ?? 0 }

    /// A parameter in seconds as a `Duration`.
    package func duration(_ key: PolicyKey) -> Duration { .milliseconds(Int64((self[key] * 1000).rounded())) }

    package func flag(_ key: PolicyKey) -> Bool { self[key] != 0 }
}

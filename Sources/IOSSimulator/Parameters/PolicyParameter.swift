/// How well a simulator parameter is backed, as in docs/ios-policy.md §Sources.
package enum SourceStatus: String, CaseIterable, Hashable, Sendable, Codable {
    /// Documented by Apple.
    case documented
    /// An Apple staff (DTS) statement.
    case staff
    /// Measured or repeated by developers.
    case folklore
    /// Sources disagree.
    case contested
    /// A simulator assumption with no source.
    case assumption
}

/// One number of the iOS background policy model, with where it comes from.
package struct PolicyParameter: Hashable, Sendable {
    package let key: PolicyKey
    package let value: Double
    package let unit: String
    /// The iOS major versions this value applies to.
    package let versions: ClosedRange<Int>
    package let status: SourceStatus
    /// Source keys from docs/ios-policy.md §Sources, e.g. `[Q85066]`.
    package let source: String

    package init(
        _ key: PolicyKey, _ value: Double, _ unit: String, ios versions: ClosedRange<Int>, _ status: SourceStatus,
        _ source: String
    ) {
        self.key = key
        self.value = value
        self.unit = unit
        self.versions = versions
        self.status = status
        self.source = source
    }
}

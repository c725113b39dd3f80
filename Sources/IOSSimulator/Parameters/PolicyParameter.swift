/// How well a simulator parameter is backed, as in docs/ios-policy.md §Sources.
public enum SourceStatus: String, CaseIterable, Hashable, Sendable, Codable {
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
public struct PolicyParameter: Hashable, Sendable {
    public let key: PolicyKey
    public let value: Double
    public let unit: String
    /// The iOS major versions this value applies to.
    public let versions: ClosedRange<Int>
    public let status: SourceStatus
    /// Source keys from docs/ios-policy.md §Sources, e.g. `[Q85066]`.
    public let source: String

    public init(
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

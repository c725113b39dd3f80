import BackgroundCore
import Synchronization

/// The policy of one iOS version, read from `PolicyTable` once so the engine does no lookups.
///
/// Every value leaves the profile through its subscript (`duration` and `flag` use it), so a
/// profile built with a ``ParameterReads`` records every parameter a run depends on. It is
/// deliberately neither `Equatable` nor `Hashable`: comparing two profiles would read every value
/// unrecorded.
package struct IOSProfile: Sendable {
    /// The profiles `bgtrack compare` runs.
    package static let supportedVersions = [6, 12, 16, 17, 18]

    package let major: Int
    /// The parameters' values in `PolicyKey.allCases` order.
    private let values: [Double]
    private let reads: ParameterReads?

    /// The profile of iOS `major`, with some parameters multiplied by `scales` (`compare
    /// --sensitivity` runs assumptions at ×0.5 and ×2), noting each parameter read in `reads`;
    /// `nil` for a version the table does not cover.
    package init?(major: Int, scales: [PolicyKey: Double] = [:], reads: ParameterReads? = nil) {
        var values: [Double] = []
        for key in PolicyKey.allCases {
            guard let parameter = PolicyTable.parameter(key, ios: major) else { return nil }
            values.append(parameter.value * (scales[key] ?? 1))
        }
        self.major = major
        self.values = values
        self.reads = reads
    }

    package subscript(_ key: PolicyKey) -> Double {
        let index = key.index
        reads?.note(index)
        return values[index]
    }

    /// A parameter in seconds as a `Duration`.
    package func duration(_ key: PolicyKey) -> Duration { .milliseconds(Int64((self[key] * 1000).rounded())) }

    package func flag(_ key: PolicyKey) -> Bool { self[key] != 0 }
}

/// The parameters a simulated run read from its profiles (`compare --sensitivity` reuses a run
/// whose reads a variation leaves unchanged, since a run is a function of the values it reads).
/// Noting a read already noted is one relaxed load: it sits on the engine's hot path.
package final class ParameterReads: Sendable {
    /// Bit `i` of word `i / 64` is the key whose `index` is `i`.
    private let low = Atomic<UInt64>(0)
    private let high = Atomic<UInt64>(0)

    package init() {
        precondition(PolicyKey.allCases.count <= 128, "ParameterReads holds 128 parameters; add a word")
    }

    func note(_ index: Int) {
        let mask: UInt64 = 1 << UInt64(index & 63)
        if index < 64 {
            if low.load(ordering: .relaxed) & mask == 0 { low.bitwiseOr(mask, ordering: .relaxed) }
        } else {
            if high.load(ordering: .relaxed) & mask == 0 { high.bitwiseOr(mask, ordering: .relaxed) }
        }
    }

    /// The parameters read so far.
    package var keys: Set<PolicyKey> {
        let words = (low.load(ordering: .relaxed), high.load(ordering: .relaxed))
        return Set(
            PolicyKey.allCases.enumerated().compactMap { index, key in
                let word = index < 64 ? words.0 : words.1
                return word & (1 << UInt64(index & 63)) != 0 ? key : nil
            })
    }
}

extension PolicyKey {
    /// The key's position in `allCases`, without hashing its raw string (the profile is read on
    /// the engine's hot path). A case without payload is stored as its index in declaration order
    /// (Swift's type layout), which is the order of `allCases`; `PolicyTableTests` checks both.
    package var index: Int { withUnsafeBytes(of: self) { Int($0[0]) } }
}

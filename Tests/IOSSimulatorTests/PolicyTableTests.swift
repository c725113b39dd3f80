import IOSSimulator
import Testing

@Suite struct PolicyTableTests {
    @Test(arguments: IOSProfile.supportedVersions) func everyKeyHasExactlyOneValuePerProfile(ios: Int) {
        for key in PolicyKey.allCases {
            let matches = PolicyTable.all.filter { $0.key == key && $0.versions.contains(ios) }
            #expect(matches.count == 1, "\(key.rawValue) on iOS \(ios): \(matches.count) rows")
            #expect(matches.allSatisfy { !$0.source.isEmpty })
        }
        #expect(IOSProfile(major: ios) != nil)
    }

    @Test func taskBudgetsFollowThePolicySheet() throws {
        #expect(try #require(IOSProfile(major: 6))[.taskBudget] == 600)
        #expect(try #require(IOSProfile(major: 12))[.taskBudget] == 180)
        #expect(try #require(IOSProfile(major: 17))[.taskBudget] == 30)
        #expect(PolicyTable.parameter(.taskBudget, ios: 17)?.status == .staff)
        #expect(IOSProfile(major: 3) == nil)
    }

    /// `compare --sensitivity` reuses a day that read nothing a variation changes: a profile notes
    /// every read, through the subscript, `flag` and `duration`, in both words of the record.
    @Test func aProfileNotesEveryParameterReadThroughIt() throws {
        let reads = ParameterReads()
        let profile = try #require(IOSProfile(major: 17, scales: [.taskBudget: 2], reads: reads))
        #expect(reads.keys.isEmpty)
        #expect(profile[.taskBudget] == 60)
        _ = profile.flag(.contractMainThread)
        _ = profile.duration(.regionLatency)
        _ = profile[.taskBudget]
        #expect(reads.keys == [.taskBudget, .contractMainThread, .regionLatency])
        #expect(PolicyKey.contractMainThread.index >= 64, "a key in the second word")
    }

    /// The profile finds a value by the key's stored index, which must be its place in `allCases`.
    @Test func aKeysIndexIsItsPlaceInAllCases() {
        #expect(MemoryLayout<PolicyKey>.size == 1)
        for (place, key) in PolicyKey.allCases.enumerated() {
            #expect(key.index == place, "\(key.rawValue)")
        }
    }
}

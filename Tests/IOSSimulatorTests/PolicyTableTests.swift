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
}

import Foundation

/// A `PrivacyInfo.xcprivacy` as Apple defines it ("Privacy manifest files"), read with
/// PropertyListSerialization, and the check that it declares every required reason API the code uses.
struct PrivacyManifest {
    struct Collected: Hashable {
        var type: String
        var linked: Bool
        var tracking: Bool
        var purposes: [String]
    }

    var tracking: Bool
    var trackingDomains: [String]
    var collected: [Collected]
    /// `NSPrivacyAccessedAPIType` → its `NSPrivacyAccessedAPITypeReasons`.
    var accessed: [String: [String]]
}

extension PrivacyManifest {
    init(contentsOf url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    init(data: Data) throws {
        struct Malformed: Error, CustomStringConvertible { var description: String }
        guard let root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let tracking = root["NSPrivacyTracking"] as? Bool,
            let domains = root["NSPrivacyTrackingDomains"] as? [String],
            let collected = root["NSPrivacyCollectedDataTypes"] as? [[String: Any]],
            let accessed = root["NSPrivacyAccessedAPITypes"] as? [[String: Any]]
        else {
            throw Malformed(description: "not a privacy manifest: it needs the four NSPrivacy… keys with their types")
        }
        self.tracking = tracking
        self.trackingDomains = domains
        self.collected = try collected.map {
            guard let type = $0["NSPrivacyCollectedDataType"] as? String,
                let linked = $0["NSPrivacyCollectedDataTypeLinked"] as? Bool,
                let tracking = $0["NSPrivacyCollectedDataTypeTracking"] as? Bool,
                let purposes = $0["NSPrivacyCollectedDataTypePurposes"] as? [String]
            else { throw Malformed(description: "a collected data type lacks one of its four keys: \($0)") }
            return Collected(type: type, linked: linked, tracking: tracking, purposes: purposes)
        }
        var types: [String: [String]] = [:]
        for entry in accessed {
            guard let type = entry["NSPrivacyAccessedAPIType"] as? String,
                let reasons = entry["NSPrivacyAccessedAPITypeReasons"] as? [String]
            else { throw Malformed(description: "an accessed API type lacks its type or reasons: \(entry)") }
            types[type] = reasons
        }
        self.accessed = types
    }

    /// What is wrong between the manifest (at `name`) and the code's uses: a used category it does
    /// not declare (App Store Connect rejects the upload, ITMS-91053), a declared category no code
    /// uses, a category without a valid reason code.
    func problems(with uses: [RequiredReasonAPI.Use], name: String) -> [String] {
        var problems: [String] = []
        for use in uses where !use.categories.contains(where: { accessed[$0] != nil }) {
            problems.append(
                "\(use) (\(use.categories.joined(separator: " or "))), which \(name) does not declare: add it to "
                    + "NSPrivacyAccessedAPITypes with the reason code that fits")
        }
        for category in accessed.keys.sorted() where !uses.contains(where: { $0.categories.contains(category) }) {
            problems.append("\(name) declares \(category) but no code uses it: remove it")
        }
        for (category, reasons) in accessed.sorted(by: { $0.key < $1.key }) {
            let valid = RequiredReasonAPI.reasons[category] ?? []
            if reasons.isEmpty || !reasons.allSatisfy(valid.contains) {
                problems.append(
                    "\(name): \(category) needs one or more of \(valid.sorted().joined(separator: ", ")), has \(reasons)"
                )
            }
        }
        return problems
    }
}

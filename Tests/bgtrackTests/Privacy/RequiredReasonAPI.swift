import Foundation

/// Apple's required reason API ("Describing use of required reason API"): each category and the
/// symbols whose use needs it declared in a privacy manifest. Symbols ending in `(` are C
/// functions (matched as calls); the others are matched as whole identifiers.
enum RequiredReasonAPI {
    static let categories: [(category: String, symbols: [String])] = [
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults", "NSUserDefaults", "AppStorage"]),
        (
            "NSPrivacyAccessedAPICategoryFileTimestamp",
            [
                "creationDate", "modificationDate", "fileModificationDate", "fileCreationDate",
                "contentModificationDateKey", "creationDateKey", "contentModificationDate",
                // Not on Apple's list by name, but it returns the creation and modification dates.
                "attributesOfItem", "getattrlist(", "getattrlistbulk(", "fgetattrlist(", "getattrlistat(", "stat(",
                "fstat(", "fstatat(", "lstat(",
            ]
        ),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["systemUptime", "mach_absolute_time("]),
        (
            "NSPrivacyAccessedAPICategoryDiskSpace",
            [
                "volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
                "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey", "systemFreeSize",
                "systemSize", "statfs(", "statvfs(", "fstatfs(", "fstatvfs(", "getattrlist(", "fgetattrlist(",
                "getattrlistat(",
            ]
        ),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", ["activeInputModes"]),
    ]

    /// The reason codes Apple lists for each category.
    static let reasons: [String: Set<String>] = [
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1", "8FFB.1", "3D61.1"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["3EC4.1", "54BD.1"],
    ]

    /// One use of a required reason API in a source file.
    struct Use: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var symbol: String
        /// The categories that cover it (`getattrlist` is in two: either declared is enough).
        var categories: [String]
        var description: String { "\(file):\(line) uses \(symbol)" }
    }

    /// The uses in one file's Swift source; comments and string literals do not count.
    static func uses(in source: String, file: String) -> [Use] {
        let code = SwiftCode.withoutCommentsAndStrings(source)
        var found: [Use] = []
        for (offset, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for symbol in symbolCategories.keys.sorted() where mentions(line, symbol) {
                found.append(
                    Use(file: file, line: offset + 1, symbol: symbol, categories: symbolCategories[symbol] ?? []))
            }
        }
        return found
    }

    /// The uses in every `.swift` file under `directories` (paths relative to `root`).
    static func uses(under directories: [String], root: URL) throws -> [Use] {
        var found: [Use] = []
        for directory in directories {
            let base = root.appendingPathComponent(directory)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let source = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                found += uses(in: source, file: "\(directory)/\(file)")
            }
        }
        return found
    }

    private static let symbolCategories: [String: [String]] = {
        var map: [String: [String]] = [:]
        for (category, symbols) in categories {
            for symbol in symbols { map[symbol, default: []].append(category) }
        }
        return map
    }()

    private static func mentions(_ line: Substring, _ symbol: String) -> Bool {
        let name = symbol.hasSuffix("(") ? String(symbol.dropLast()) : symbol
        var start = line.startIndex
        while let range = line[start...].range(of: name) {
            start = range.upperBound
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = line[range.upperBound...]
            guard !(before.map(isIdentifier) ?? false), !(after.first.map(isIdentifier) ?? false) else { continue }
            if !symbol.hasSuffix("(") || after.drop(while: { $0 == " " }).first == "(" { return true }
        }
        return false
    }

    private static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}

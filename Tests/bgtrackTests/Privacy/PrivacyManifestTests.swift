import Foundation
import Testing

/// Issue 22, item 3: the library's and the example app's privacy manifests declare exactly the
/// required reason API their code uses, and the data the library collects.
@Suite struct PrivacyManifestTests {
    /// Tests/bgtrackTests/Privacy/PrivacyManifestTests.swift → the package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The code an app links: the iOS shell and the targets it depends on.
    static let librarySources = ["Sources/BackgroundTracker", "Sources/LocationLog", "Sources/BackgroundCore"]
    static let exampleSources = ["Examples/TrackerApp/App", "Examples/TrackerApp/Model"]

    static func manifest(_ path: String) throws -> PrivacyManifest {
        try PrivacyManifest(contentsOf: root.appendingPathComponent(path))
    }

    @Test func theLibraryManifestDeclaresWhatItsCodeUses() throws {
        let uses = try RequiredReasonAPI.uses(under: Self.librarySources, root: Self.root)
        let name = "Sources/BackgroundTracker/PrivacyInfo.xcprivacy"
        let problems = try Self.manifest(name).problems(with: uses, name: name)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theExampleManifestDeclaresWhatItsCodeUses() throws {
        let uses = try RequiredReasonAPI.uses(under: Self.exampleSources, root: Self.root)
        // The scan finds the settings' UserDefaults in the model: the check has something to check.
        #expect(uses.contains { $0.file.hasSuffix("TrackerModel.swift") && $0.symbol == "UserDefaults" })
        let name = "Examples/TrackerApp/PrivacyInfo.xcprivacy"
        let manifest = try Self.manifest(name)
        #expect(manifest.problems(with: uses, name: name).isEmpty, "\(manifest.problems(with: uses, name: name))")
        #expect(manifest.accessed == ["NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1"]])
    }

    @Test(arguments: ["Sources/BackgroundTracker/PrivacyInfo.xcprivacy", "Examples/TrackerApp/PrivacyInfo.xcprivacy"])
    func theManifestsDeclareThePreciseLocationAndDeviceIDForTheAppsFunction(path: String) throws {
        let manifest = try Self.manifest(path)
        #expect(!manifest.tracking && manifest.trackingDomains.isEmpty)
        let purpose = ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]
        #expect(
            manifest.collected == [
                .init(
                    type: "NSPrivacyCollectedDataTypePreciseLocation", linked: true, tracking: false, purposes: purpose),
                .init(type: "NSPrivacyCollectedDataTypeDeviceID", linked: true, tracking: false, purposes: purpose),
            ])
    }

    @Test func theAppTargetShipsTheExampleManifest() throws {
        let spec = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/TrackerApp/project.yml"), encoding: .utf8)
        #expect(spec.contains("- path: PrivacyInfo.xcprivacy\n        buildPhase: resources"))
    }

    /// A manifest that declares nothing, and one declaring each category with a valid reason.
    static let empty = PrivacyManifest(tracking: false, trackingDomains: [], collected: [], accessed: [:])

    /// (a use of a required reason API, the category it needs)
    static let snippets: [(String, String)] = [
        ("let defaults = UserDefaults.standard", "NSPrivacyAccessedAPICategoryUserDefaults"),
        ("@AppStorage(\"server\") var server = \"\"", "NSPrivacyAccessedAPICategoryUserDefaults"),
        ("let date = try FileManager.default.attributesOfItem(atPath: p)", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        (
            "let values = try url.resourceValues(forKeys: [.contentModificationDateKey])",
            "NSPrivacyAccessedAPICategoryFileTimestamp"
        ),
        ("var info = stat(); _ = stat(path, &info)", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("let up = ProcessInfo.processInfo.systemUptime", "NSPrivacyAccessedAPICategorySystemBootTime"),
        ("let t = mach_absolute_time()", "NSPrivacyAccessedAPICategorySystemBootTime"),
        (
            "let v = try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])",
            "NSPrivacyAccessedAPICategoryDiskSpace"
        ),
        ("let modes = UITextInputMode.activeInputModes", "NSPrivacyAccessedAPICategoryActiveKeyboards"),
    ]

    /// The check fails on an undeclared required reason API, naming the file, the API and the
    /// category; declaring the category with a valid reason makes it pass.
    @Test(arguments: 0..<snippets.count) func anUndeclaredRequiredReasonAPIFails(index: Int) {
        let (source, category) = Self.snippets[index]
        let uses = RequiredReasonAPI.uses(in: "import Foundation\n\(source)\n", file: "Synthetic.swift")
        let problems = Self.empty.problems(with: uses, name: "PrivacyInfo.xcprivacy")
        #expect(!problems.isEmpty, "\(source)")
        #expect(problems.allSatisfy { $0.hasPrefix("Synthetic.swift:2 uses ") && $0.contains(category) }, "\(problems)")
        var declared = Self.empty
        declared.accessed[category] = [RequiredReasonAPI.reasons[category]?.sorted().first ?? ""]
        #expect(declared.problems(with: uses, name: "PrivacyInfo.xcprivacy").isEmpty)
    }

    @Test func commentsStringsAndLongerNamesDoNotCount() {
        let source = """
            // UserDefaults in a comment, /* systemUptime */ too
            let message = "set UserDefaults and stat(x)"
            let text = \"\"\"
                mach_absolute_time()
                \"\"\"
            let myUserDefaultsLike = 1; let restat = status(2); statistics(3)
            """
        #expect(RequiredReasonAPI.uses(in: source, file: "X.swift").isEmpty)
        // Code inside an interpolation is code.
        let interpolated = #"print("\(UserDefaults.standard.bool(forKey: "k"))")"#
        #expect(RequiredReasonAPI.uses(in: interpolated, file: "X.swift").map(\.symbol) == ["UserDefaults"])
    }

    @Test func aDeclaredCategoryNoCodeUsesOrABadReasonFails() {
        var manifest = Self.empty
        manifest.accessed["NSPrivacyAccessedAPICategoryDiskSpace"] = ["85F4.1"]
        #expect(manifest.problems(with: [], name: "M").first?.contains("no code uses it") == true)
        manifest.accessed = ["NSPrivacyAccessedAPICategoryUserDefaults": ["35F9.1"]]
        let uses = RequiredReasonAPI.uses(in: "UserDefaults.standard", file: "X.swift")
        #expect(manifest.problems(with: uses, name: "M").first?.contains("CA92.1") == true)
    }
}

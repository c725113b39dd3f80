import Foundation
import Testing

/// The shadow declares exactly the Apple API the shell uses, and every declaration names the
/// documentation page it was copied from. This test reads the shadow's sources.
@Suite("AppleShadow declarations")
struct ShadowDeclarationTests {
    /// The number docs/development.md states. Adding or removing a declaration changes it on purpose.
    static let expectedCount = 330

    static let urlPrefix = "/// Apple: https://developer.apple.com/documentation/"

    struct Declaration: CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var citation: String?
        var description: String { "\(file):\(line): \(text)" }
    }

    /// `Sources/AppleShadow`, found from this file's path.
    static var shadowDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AppleShadow")
    }

    /// A line that begins a declaration: optional attributes and modifiers, then a keyword. Lines
    /// marked `private`, `fileprivate` or `internal` are the shadow's own plumbing, not Apple API.
    static func isDeclaration(_ line: String) -> Bool {
        // Setter access (`internal(set)`) narrows only the setter: the declaration is still public.
        var words = line.split(separator: " ").map(String.init).filter { !$0.hasSuffix("(set)") }
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        let modifiers: Set<String> = [
            "public", "open", "nonisolated", "static", "class", "final", "convenience", "override", "weak",
        ]
        if words.contains(where: { ["private", "fileprivate", "internal"].contains($0) }) { return false }
        while let first = words.first, modifiers.contains(first), words.count > 1 {
            let next = words[1]
            // `class` is a modifier only before another declaration keyword (`class func`).
            if first == "class", !["func", "var", "let"].contains(next) { break }
            words.removeFirst()
        }
        guard let keyword = words.first else { return false }
        let keywords = ["func", "var", "let", "init", "class", "struct", "enum", "protocol", "typealias", "case"]
        return keywords.contains { keyword == $0 || keyword.hasPrefix($0 + "(") || keyword.hasPrefix($0 + "<") }
    }

    static func declarations() throws -> [Declaration] {
        let root = shadowDirectory
        let files = try #require(FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String])
        var found: [Declaration] = []
        // The backends and their helpers are the shadow's own API, declared as such in each
        // module's `Backend/` folder (and the umbrella module's).
        for file in files.sorted()
        where file.hasSuffix(".swift") && !file.hasPrefix("Backend/") && !file.contains("/Backend/") {
            let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where isDeclaration(line) {
                var comment = index - 1
                var citation: String?
                while comment >= 0, lines[comment].hasPrefix("///") || lines[comment].hasPrefix("@") {
                    if lines[comment].hasPrefix(urlPrefix) { citation = lines[comment] }
                    comment -= 1
                }
                found.append(Declaration(file: file, line: index + 1, text: line, citation: citation))
            }
        }
        return found
    }

    @Test("every shadow declaration cites its Apple documentation page")
    func everyDeclarationCitesItsPage() throws {
        let declarations = try Self.declarations()
        let uncited = declarations.filter { $0.citation == nil }
        #expect(uncited.isEmpty, "declarations without a `/// Apple: <documentation URL>` line: \(uncited)")
        #expect(
            declarations.count == Self.expectedCount,
            "the shadow has \(declarations.count) declarations; update expectedCount and docs/development.md")
    }

    @Test("the scanner sees declarations and skips bodies and plumbing")
    func scanner() {
        #expect(Self.isDeclaration("public init(identifier: String) { super.init(taskIdentifier: identifier) }"))
        #expect(Self.isDeclaration("open class var shared: BGTaskScheduler { instance }"))
        #expect(
            Self.isDeclaration("nonisolated public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {"))
        #expect(Self.isDeclaration("weak open var delegate: (any CLLocationManagerDelegate)?"))
        #expect(Self.isDeclaration("case notDetermined = 0"))
        #expect(!Self.isDeclaration("@MainActor"))
        #expect(Self.isDeclaration("public internal(set) var arrivalDate = Date.distantPast"))
        #expect(!Self.isDeclaration("private static let instance = UIApplication()"))
        #expect(!Self.isDeclaration("internal init() {}"))
        #expect(!Self.isDeclaration("UIKitShadow.backend.endBackgroundTask(identifier.rawValue)"))
        #expect(!Self.isDeclaration("self.identifier = identifier"))
    }
}

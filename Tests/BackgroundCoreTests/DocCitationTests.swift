import Foundation
import Testing

/// The code cites the package's own documents as `docs/protocol.md §Acknowledgement`: a file under
/// `docs/` and a heading in it. Every citation in `Sources` and `Tests` must name a heading that
/// exists, every `§` must belong to such a citation (or to an RFC), and every source key of the
/// iOS policy (`[Q85066]`) must be listed in docs/ios-policy.md §Sources, so citations cannot rot.
@Suite("Doc citations resolve")
struct DocCitationTests {
    @Test func everyCitationInTheCodeNamesAHeadingOfItsDocument() throws {
        let checker = try DocCitations(root: Self.packageRoot)
        var problems: [String] = []
        var citations = 0
        for file in try Self.files(under: ["Sources", "Tests"], extensions: ["swift", "md", "yaml"]) {
            // This file's own examples of broken citations are broken on purpose.
            if file.lastPathComponent == Self.thisFile { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            let found = checker.check(text, file: Self.relative(file))
            problems += found.problems
            citations += found.citations
        }
        #expect(problems.isEmpty, "\(problems.count) broken citations:\n\(problems.joined(separator: "\n"))")
        // The code cites the documents dozens of times; none found means the scan looked nowhere.
        #expect(citations > 50)
    }

    @Test func everyPolicySourceKeyInTheCodeIsListedInTheDocument() throws {
        let checker = try DocCitations(root: Self.packageRoot)
        var missing: [String: String] = [:]
        let policy = Self.packageRoot.appendingPathComponent("docs/ios-policy.md")
        for file in try Self.files(under: ["Sources", "Tests"], extensions: ["swift", "md"]) + [policy] {
            if file.lastPathComponent == Self.thisFile { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for key in DocCitations.sourceKeys(in: text) where !checker.listedSourceKeys.contains(key) {
                missing[key] = Self.relative(file)
            }
        }
        #expect(
            missing.isEmpty,
            "source keys cited but not listed in docs/ios-policy.md §Sources (add them there): \(missing.sorted { $0.key < $1.key })"
        )
        #expect(checker.listedSourceKeys.count > 30)
    }

    /// The checker itself, on text whose verdict is known.
    @Test func theCheckerRefusesWhatWouldRot() {
        let checker = DocCitations(
            headings: ["protocol.md": ["Batches", "Acknowledgement"], "ios-policy.md": ["Sources", "Contract"]],
            listedSourceKeys: [])
        let good = """
            /// Rules (docs/protocol.md §Acknowledgement and issue 4), (docs/ios-policy.md §Contract).
            /// Both (docs/protocol.md §Batches, §Acknowledgement); RFC 7946 §3.1.4 is not ours.
            """
        #expect(checker.check(good, file: "a.swift") == .init(citations: 4, problems: []))
        let bad = [
            "/// (protocols.md §1)": "a.swift:1: § without a docs/<file>.md before it on the line",
            "/// (policy §13)": "a.swift:1: § without a docs/<file>.md before it on the line",
            "/// (docs/protocol.md §Acknowledgment)":
                "a.swift:1: docs/protocol.md has no heading \"Acknowledgment\" (headings: Acknowledgement, Batches)",
            "/// (docs/protocols.md §Batches)": "a.swift:1: docs/protocols.md does not exist",
            "/// (docs/protocol.md §1)":
                "a.swift:1: docs/protocol.md has no heading \"1\" (headings: Acknowledgement, Batches)",
        ]
        for (line, problem) in bad {
            #expect(checker.check(line, file: "a.swift").problems == [problem], "\(line)")
        }
        #expect(
            DocCitations.sourceKeys(in: "[Q85066] [AD-CLM], [String] [UInt8] [W19]") == ["Q85066", "AD-CLM", "W19"])
    }

    static let thisFile = URL(fileURLWithPath: #filePath).lastPathComponent
    /// The repository's root: `Tests` is reached through `Tools/Tests`, a link, when the tools
    /// package compiles this file, and `docs/` lies beside the real folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func relative(_ file: URL) -> String {
        String(file.path.dropFirst(packageRoot.path.count + 1))
    }

    static func files(under folders: [String], extensions: Set<String>) throws -> [URL] {
        var files: [URL] = []
        for folder in folders {
            let url = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
                throw DocCitations.Missing(path: url.path)
            }
            for case let file as URL in walker where extensions.contains(file.pathExtension) {
                files.append(file)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// Reads `docs/*.md` headings and checks `docs/<file>.md §<Heading>` citations against them.
struct DocCitations {
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing; the doc-citation test runs from a checkout" }
    }

    struct Result: Equatable {
        var citations = 0
        var problems: [String] = []
    }

    /// Headings (without the `#`s) of every document under `docs/`, by file name.
    var headings: [String: Set<String>]
    /// The keys listed (as `- [KEY]`) in docs/ios-policy.md §Sources.
    var listedSourceKeys: Set<String>

    init(headings: [String: Set<String>], listedSourceKeys: Set<String>) {
        self.headings = headings
        self.listedSourceKeys = listedSourceKeys
    }

    init(root: URL) throws {
        let docs = root.appendingPathComponent("docs")
        var headings: [String: Set<String>] = [:]
        var listed: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            var inFence = false
            var section = ""
            var found: Set<String> = []
            for line in try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            {
                if line.hasPrefix("```") { inFence.toggle() }
                if inFence { continue }
                if line.hasPrefix("#") {
                    section = String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
                    found.insert(section)
                } else if name == "ios-policy.md", section == "Sources", line.hasPrefix("- ") {
                    listed.formUnion(Self.sourceKeys(in: String(line.prefix { $0 != ":" })))
                }
            }
            headings[name] = found
        }
        self.init(headings: headings, listedSourceKeys: listed)
    }

    /// Checks every `§` of `text`: each must follow a `docs/<file>.md` on its line (the nearest one
    /// before it is the document it cites) and name one of that document's headings; `RFC n §x`
    /// cites an RFC and is left alone.
    func check(_ text: String, file: String) -> Result {
        var result = Result()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.contains("§") else { continue }
            let documents = line.matches(of: /docs\/([A-Za-z0-9_-]+\.md)/).map { ($0.range.upperBound, String($0.1)) }
            for mark in line.matches(of: /§([A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]|[A-Za-z0-9])/) {
                let name = String(mark.1)
                let before = line[..<mark.range.lowerBound]
                if before.firstMatch(of: /RFC [0-9]+ $/) != nil { continue }
                guard let document = documents.last(where: { $0.0 <= mark.range.lowerBound })?.1 else {
                    result.problems.append("\(file):\(index + 1): § without a docs/<file>.md before it on the line")
                    continue
                }
                result.citations += 1
                guard let known = headings[document] else {
                    result.problems.append("\(file):\(index + 1): docs/\(document) does not exist")
                    continue
                }
                if !known.contains(name) {
                    result.problems.append(
                        "\(file):\(index + 1): docs/\(document) has no heading \"\(name)\" "
                            + "(headings: \(known.sorted().joined(separator: ", ")))")
                }
            }
        }
        return result
    }

    /// The iOS policy's source keys in `text` (`[Q85066]`, `[AD-CLM]`, `[W19]`), in order; type
    /// names in brackets (`[String]`) are not keys.
    static func sourceKeys(in text: String) -> [String] {
        text.matches(of: /\[((?:AD|APG|LPG|SO|R|P|F)-[A-Za-z0-9]+|EEG|BGH|ARG|W[0-9]{2}|Q[0-9]{4,}|F[0-9]{4,})\]/)
            .map { String($0.1) }
    }
}

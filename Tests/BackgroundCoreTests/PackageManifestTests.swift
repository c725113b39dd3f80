import Foundation
import Testing

/// The two manifests (docs/development.md, "Two packages: the library and the tools"): the library
/// package an app adds depends on GRDB alone, and every target it declares is declared the same
/// way by the tools package, which compiles the same folders.
@Suite("Package manifests")
struct PackageManifestTests {
    static let root = DocCitationTests.packageRoot

    static func manifest(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Each `.target(` or `.systemLibrary(` call in `text`, from its dot to its closing
    /// parenthesis, with runs of white space made one space and comments dropped.
    static func targetDeclarations(in text: String) -> [String: String] {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: " ")
        var found: [String: String] = [:]
        var rest = code[...]
        while let start = rest.range(of: #"\.(target|systemLibrary)\(\s*name: ""#, options: .regularExpression) {
            var depth = 0
            var end = start.lowerBound
            for index in rest[start.lowerBound...].indices {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" {
                    depth -= 1
                    if depth == 0 {
                        end = rest.index(after: index)
                        break
                    }
                }
            }
            let call = rest[start.lowerBound..<end].split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacingOccurrences(of: ", )", with: ")").replacingOccurrences(of: ",)", with: ")")
            if let nameStart = call.range(of: #"name: ""#)?.upperBound,
                let nameEnd = call[nameStart...].firstIndex(of: "\"")
            {
                found[String(call[nameStart..<nameEnd])] = call
            }
            rest = rest[end...]
        }
        return found
    }

    @Test func theLibraryPackageDependsOnGRDBAlone() throws {
        let library = try Self.manifest("Package.swift")
        let dependencies = library.components(separatedBy: ".package(url:").dropFirst()
            .map { $0.split(separator: ",")[0].trimmingCharacters(in: .whitespaces) }
        #expect(dependencies == [#""https://github.com/groue/GRDB.swift""#])
        #expect(!library.contains("traits"), "an app adds the library with its default traits: it declares none")
    }

    @Test func everyLibraryTargetIsDeclaredTheSameWayByTheToolsPackage() throws {
        let library = Self.targetDeclarations(in: try Self.manifest("Package.swift"))
        let tools = Self.targetDeclarations(in: try Self.manifest("Tools/Package.swift"))
        #expect(Set(library.keys).isSuperset(of: ["BackgroundCore", "LocationLog", "BackgroundTracker", "CZlib"]))
        for (name, declaration) in library {
            #expect(tools[name] == declaration, "target \(name): the two manifests differ")
        }
        for shared in ["let strictSettings", "let shadowModules", "let shadowDependencies"] {
            let block = { (text: String) -> String? in
                text.range(of: shared).map { range in
                    String(text[range.lowerBound...].prefix { $0 != "]" && $0 != "}" })
                        .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                }
            }
            let inLibrary = try #require(block(try Self.manifest("Package.swift")), "\(shared) in Package.swift")
            #expect(block(try Self.manifest("Tools/Package.swift")) == inLibrary, "\(shared) differs")
        }
    }

    @Test func theDeclarationReaderSeesADifference() {
        let one = #".target(name: "A", dependencies: ["B"], swiftSettings: s), .target(name: "C")"#
        let other = #".target(name: "A", dependencies: ["B", "D"], swiftSettings: s)"#
        #expect(Self.targetDeclarations(in: one).keys.sorted() == ["A", "C"])
        #expect(Self.targetDeclarations(in: one)["A"] != Self.targetDeclarations(in: other)["A"])
    }
}

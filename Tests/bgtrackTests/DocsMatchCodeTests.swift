import ArgumentParser
import BackgroundCore
import Foundation
import GRDB
import Hummingbird
import LocationLog
import Logging
import Testing
import TrackServer

@testable import bgtrack

/// Issue 41 item 5: every database column and table, `bgtrack` flag and server route that docs/
/// names exists in the code. Each check reads every `docs/*.md`, finds the names by how the docs
/// write them (below), and fails listing each one that does not exist, with its file.
@Suite("Docs match the code: columns, flags and routes named in docs/ exist")
struct DocsMatchCodeTests {
    /// The repository's root (`Tests` is reached through the `Tools/Tests` link when the tools
    /// package compiles this file; `docs/` and `scripts/` lie beside the real folder).
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `docs/*.md`, by file name.
    static func docs() throws -> [(name: String, text: String)] {
        let folder = root.appendingPathComponent("docs")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func matches(_ pattern: String, in text: String, group: Int = 1) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: whole).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// Code spans and the lines of code blocks: where docs name commands, flags and routes.
    static func code(_ text: String) throws -> [String] {
        let blocks = try matches("(?s)```[^\\n]*\\n(.*?)```", in: text)
        let prose = try NSRegularExpression(pattern: "(?s)```.*?```").stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        return blocks.flatMap { $0.split(separator: "\n").map(String.init) } + (try matches("`([^`\\n]+)`", in: prose))
    }

    // MARK: Columns and tables

    /// How docs name a column or table: "column `x`", "`x` column", "table `x`", "tables `x` and
    /// `y`", "SQLite column `x`, PostgreSQL `y`".
    static func namedColumnsAndTables(_ text: String) throws -> [String] {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        let name = "`([A-Za-z_][A-Za-z0-9_]*)`"
        var found = try matches("\\b(?:columns?|tables?)\\s+\(name)", in: flat)
        found += try matches("\\b(?:columns?|tables?)\\s+`[A-Za-z_][A-Za-z0-9_]*`\\s+(?:and|or)\\s+\(name)", in: flat)
        found += try matches("\(name)\\s+(?:columns?|tables?)\\b", in: flat)
        found += try matches("\\bcolumn\\s+`[A-Za-z_][A-Za-z0-9_]*`,\\s+PostgreSQL\\s+\(name)", in: flat)
        return found
    }

    /// Names in docs that are not database columns, with why.
    static let notColumns: [String: String] = [
        "code": "simulator.md: the `code` column of the simulator's report tables, not a database column"
    ]

    /// Every table and column of the server's SQLite schema (the PostgreSQL store's are named the
    /// same since the snake-case migrations) and of the phone's store (`LocationStore`).
    static func schemaNames() async throws -> Set<String> {
        func names(_ db: Database) throws -> Set<String> {
            var all = Set<String>()
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                all.insert(table)
                for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))") {
                    all.insert(row["name"])
                }
            }
            return all
        }
        let server = try SQLiteTrackStore.inMemory()
        var all = try server.writer.read(names)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docs-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = folder.appendingPathComponent("phone.sqlite").path
        _ = try LocationStore.open(path: phone, durability: .processCrash, now: Instant(milliseconds: 0))
        all.formUnion(try DatabaseQueue(path: phone).read(names))
        // PostgreSQL's own tables (its migrations' `schema_version`), from its store's statements.
        let postgres = root.appendingPathComponent("Sources/TrackServerPostgres")
        for file in try FileManager.default.contentsOfDirectory(atPath: postgres.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: postgres.appendingPathComponent(file), encoding: .utf8)
            all.formUnion(try matches("CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)", in: text))
        }
        return all
    }

    @Test func everyColumnAndTableNamedInDocsExists() async throws {
        let schema = try await Self.schemaNames()
        #expect(schema.contains("owntracks_key") && schema.contains("sample"))  // the schema was read
        var missing: [String] = []
        var checked = 0
        for doc in try Self.docs() {
            for name in try Self.namedColumnsAndTables(doc.text) where Self.notColumns[name] == nil {
                checked += 1
                if !schema.contains(name) { missing.append("\(doc.name): `\(name)`") }
            }
        }
        #expect(checked >= 10, "found only \(checked) column or table names in docs/; did the patterns break?")
        #expect(missing.isEmpty, "named in docs/ as a column or table, but no such one exists: \(missing)")
    }

    // MARK: Flags

    /// Every long flag of `bgtrack` and its subcommands, from their help (hidden ones included).
    static func bgtrackFlags() throws -> Set<String> {
        var flags: Set<String> = ["--help", "--version"]
        var commands: [any ParsableCommand.Type] = [BGTrack.self]
        while let command = commands.popLast() {
            commands += command.configuration.subcommands
            let help = BGTrack.helpMessage(for: command, includeHidden: true, columns: 10_000)
            flags.formUnion(try matches(flagPattern, in: help))
        }
        return flags
    }

    /// Every flag our scripts take or pass (`scripts/browser-check.sh --screenshots DIR`), as
    /// their files spell them: docs name those in code spans too.
    static func scriptFlags() throws -> Set<String> {
        let folder = root.appendingPathComponent("scripts")
        var flags: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else {
                continue
            }
            flags.formUnion(try matches(flagPattern, in: text))
        }
        return flags
    }

    /// Other tools' flags that docs name alone, with why they are not ours.
    static let otherTools: [String: String] = [
        "--interface": "curl's, in the reverse-proxy recipe's check",
        "--expect100-timeout": "curl's, in the Expect: 100-continue figures",
        "--warnings-as-errors": "swift-docc's, in development.md's DocC check",
    ]

    /// A long flag; not one cut short by an ellipsis (`--flag-…` names a family).
    static let flagPattern = #"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9])(?![\w…-])"#

    /// Every long flag of `bgtrack-bench`, read from its sources (an executable: not importable):
    /// each `var name` of an `@Option`/`@Flag` as `--kebab-name`, and each `.customLong("…")`.
    static func benchFlags() throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/bgtrack-bench")
        var flags: Set<String> = ["--help"]
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for name in try matches("@(?:Option|Flag)\\b[^\\n]*?(?:\\n[^\\n]*?)*?\\bvar\\s+([a-zA-Z0-9]+)", in: text) {
                flags.insert("--" + name.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined())
            }
            flags.formUnion(try matches("customLong\\(\"([a-z0-9-]+)\"", in: text).map { "--" + $0 })
        }
        return flags
    }

    /// The flags docs give `bgtrack`: in a command line that runs it (`bgtrack …`, not
    /// `bgtrack-bench`), every flag after it, up to a pipe or `&&`; and every code span that is a
    /// flag alone (`--offline-minutes 10`), which docs write for `serve`'s options and the
    /// benchmarks' (so those may be either's).
    static func namedFlags(_ text: String) throws -> (bgtrack: [String], either: [String]) {
        let flag = flagPattern
        var bgtrack: [String] = []
        var either: [String] = []
        for line in try code(text) {
            if line.hasPrefix("--") {
                either += try matches(flag, in: line)
                continue
            }
            for command in line.split(separator: "|").flatMap({ $0.components(separatedBy: "&&") }) {
                guard let start = command.range(of: #"(?<![\w/.-])bgtrack(?![\w-])"#, options: .regularExpression)
                else { continue }
                bgtrack += try matches(flag, in: String(command[start.upperBound...]))
            }
        }
        return (bgtrack, either)
    }

    @Test func everyFlagNamedInDocsExists() throws {
        let bgtrack = try Self.bgtrackFlags()
        let bench = try Self.benchFlags().union(try Self.scriptFlags()).union(Self.otherTools.keys)
        #expect(bgtrack.contains("--offline-minutes") && bgtrack.contains("--trusted-proxy"))
        #expect(bench.contains("--peers") && bench.contains("--executor"))
        var missing: [String] = []
        var checked = 0
        for doc in try Self.docs() {
            let named = try Self.namedFlags(doc.text)
            for flag in named.bgtrack {
                checked += 1
                if !bgtrack.contains(flag) { missing.append("\(doc.name): bgtrack \(flag)") }
            }
            for flag in named.either {
                checked += 1
                if !bgtrack.contains(flag) && !bench.contains(flag) { missing.append("\(doc.name): \(flag)") }
            }
        }
        #expect(checked >= 50, "found only \(checked) flags in docs/; did the patterns break?")
        #expect(
            missing.isEmpty,
            "named in docs/ as a flag, but neither bgtrack, bgtrack-bench nor a script has it: \(missing)")
    }

    // MARK: Routes

    /// The server's routes as `METHOD /path` with their segments (`{id}` any one segment, `**` the rest).
    static func routes() throws -> [(method: String, segments: [String])] {
        var logger = Logger(label: "docs")
        logger.logLevel = .critical
        let router = buildRouter(TrackServerEnvironment(store: try SQLiteTrackStore.inMemory(), logger: logger))
        return router.routes.map { route in
            (route.method.rawValue, "\(route.path)".split(separator: "/").map(String.init))
        }
    }

    /// The routes docs name: in code spans and code blocks, `METHOD /path` and `/path` or a URL's
    /// path under the server's prefixes (`/v1/`, `/ingest/`, `/devices/`, `/s/`, `/static/`,
    /// `/healthz`, `/metrics`, `/openapi.yaml`), without the query.
    static func namedRoutes(_ text: String) throws -> [(method: String?, path: String)] {
        let pattern =
            #"(?:(GET|POST|PUT|DELETE|PATCH)\s+)?(?:https?://[A-Za-z0-9.:\[\]$_-]+)?(?<![\w.:/$-])"#
            + #"(/(?:v1|ingest|devices|s|static|healthz|metrics|openapi\.yaml)\b[^\s`?,)\[\]"']*)"#
        var found: [(String?, String)] = []
        let regex = try NSRegularExpression(pattern: pattern)
        for line in try code(text) {
            for match in regex.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                guard let path = Range(match.range(at: 2), in: line).map({ String(line[$0]) }) else { continue }
                found.append((Range(match.range(at: 1), in: line).map { String(line[$0]) }, path))
            }
        }
        return found
    }

    /// Whether a path as docs write it is one of the route's: literal segments equal, `{id}` or a
    /// value (`iphone-42`) for a parameter, `*`/`…` or a trailing `/` for any rest.
    static func route(_ segments: [String], matches path: String) -> Bool {
        let named = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        for (index, part) in named.enumerated() {
            guard index < segments.count else { return false }
            let segment = segments[index]
            if segment == "**" { return true }
            let open = part.isEmpty || part.contains("*") || part.contains("…") || part.contains("{")
            if segment.hasPrefix("{") || segment.hasPrefix(":") || segment == "*" {
                if part.isEmpty && index == named.count - 1 { return true }
                continue
            }
            if open && index == named.count - 1 { return true }
            if part != segment { return false }
        }
        return named.count == segments.count || segments.dropFirst(named.count).first == "**"
    }

    @Test func everyRouteNamedInDocsExists() throws {
        let routes = try Self.routes()
        #expect(routes.contains { $0.method == "GET" && $0.segments == ["healthz"] })
        var missing: [String] = []
        var checked = 0
        for doc in try Self.docs() {
            for (method, path) in try Self.namedRoutes(doc.text) {
                checked += 1
                let known = routes.contains { route in
                    (method == nil || route.method == method) && Self.route(route.segments, matches: path)
                }
                if !known { missing.append("\(doc.name): \(method.map { "\($0) " } ?? "")\(path)") }
            }
        }
        #expect(checked >= 30, "found only \(checked) routes in docs/; did the patterns break?")
        #expect(missing.isEmpty, "named in docs/ as a route, but the server has no such route: \(missing)")
    }

    /// The checks find what they are for: a made-up column, flag and route are reported.
    @Test func theChecksCatchMadeUpNames() throws {
        let text = """
            The SQLite column `owntracksKey` holds it; `bgtrack serve --no-such-flag`; `GET /v1/nothing/here`.
            """
        #expect(try Self.namedColumnsAndTables(text) == ["owntracksKey"])
        #expect(try Self.namedFlags(text).bgtrack == ["--no-such-flag"])
        let routes = try Self.routes()
        let named = try Self.namedRoutes(text)
        #expect(named.count == 1)
        #expect(!routes.contains { Self.route($0.segments, matches: named[0].path) })
        #expect(routes.contains { Self.route($0.segments, matches: "/v1/devices/iphone-42/map") })
    }
}

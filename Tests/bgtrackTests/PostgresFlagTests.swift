import ArgumentParser
import Testing

@testable import bgtrack

#if Postgres
    /// `--postgres URL` on `serve`, `device …` and `operator …`: a malformed URL is refused before
    /// anything starts, saying what is wrong and what a good URL looks like; an unreachable server
    /// says where it looked and what to do.
    @Suite struct PostgresFlagTests {
        func message(_ arguments: [String]) -> String? { refusal(arguments) }

        @Test(arguments: [
            ["serve"], ["device", "add", "phone"], ["device", "list"], ["device", "revoke", "phone"],
            ["operator", "add", "ops"], ["operator", "list"], ["operator", "revoke", "ops"],
        ])
        func aMalformedURLIsRefusedByEveryCommand(command: [String]) throws {
            let text = try #require(message(command + ["--postgres", "mysql://u:hunter2@127.0.0.1/tracks"]))
            #expect(text.contains("--postgres"))
            #expect(text.contains("does not start with postgres://"))
            #expect(text.contains("postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
            #expect(!text.contains("hunter2"))
        }

        @Test(arguments: [
            ("postgres://127.0.0.1/tracks", "has no user name"),
            ("postgres://u@127.0.0.1", "has no database name"),
            ("postgres://u@127.0.0.1:70000/t", "port"),
            ("not a url at all", "postgres"),
        ])
        func eachMistakeIsNamed(url: String, problem: String) throws {
            let text = try #require(message(["serve", "--postgres", url]))
            #expect(text.contains(problem), "\(text)")
        }

        @Test func aGoodURLParses() throws {
            let command = try #require(
                try BGTrack.parseAsRoot(["device", "list", "--postgres", "postgres://bgtrack@127.0.0.1:5432/tracks"])
                    as? DeviceList)
            #expect(command.database.name == "postgres://bgtrack@127.0.0.1:5432/tracks")
        }

        @Test func anUnreachableServerSaysWhereAndWhatToDo() async throws {
            let command = try #require(
                try BGTrack.parseAsRoot([
                    "device", "list", "--postgres", "postgres://bgtrack:hunter2@127.0.0.1:1/tracks",
                ])
                    as? DeviceList)
            do {
                try await command.run()
                Issue.record("expected an error")
            } catch {
                let text = BGTrack.message(for: error)
                #expect(text.contains("cannot connect to PostgreSQL at 127.0.0.1:1"), "\(text)")
                #expect(text.contains("is the server running") && !text.contains("hunter2"))
            }
        }
    }
#else
    /// `bgtrack` built without the `Postgres` trait (the default: `bgtrack demo` compiles no TLS
    /// stack): `--postgres` is refused by every command before anything starts, saying how to build
    /// a `bgtrack` that has it (issue 37, item 7).
    @Suite struct PostgresFlagTests {
        @Test(arguments: [["serve"], ["device", "list"], ["operator", "add", "ops"]])
        func withoutTheTraitPostgresIsRefusedWithHowToBuildIt(command: [String]) throws {
            let text = try #require(refusal(command + ["--postgres", "postgres://u:hunter2@127.0.0.1/tracks"]))
            #expect(text.contains("built without PostgreSQL support"), "\(text)")
            #expect(text.contains("--traits Postgres") && !text.contains("hunter2"))
        }
    }
#endif

import ArgumentParser
import BackgroundCore
import LocationLog
import TrackServer

/// `bgtrack operator add NAME`: an operator token reads every device (map, index, track API).
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator", abstract: "Manage operator tokens (read every device, upload for none).",
        subcommands: [OperatorAdd.self, OperatorList.self, OperatorRevoke.self])
}

struct OperatorAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create an operator token and print it (shown only once).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "A name for the operator (a person or a dashboard).") var name: String

    func run() async throws {
        let token = Tokens.mint(prefix: "bgo")
        do {
            try await database.withStore {
                try await $0.addOperator(name: name, tokenHash: Tokens.hash(token), at: ServerClock.system.now)
            }
        } catch let error as TrackStoreError {
            throw ValidationError(error.description)
        }
        print("operator \(name) added; its token (shown only this once):")
        print(token)
    }
}

/// `bgtrack operator list`: every operator and whether its token still works.
struct OperatorList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List operators.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let operators = try await database.withStore { try await $0.operators() }
        if operators.isEmpty { print("no operators; add one with `bgtrack operator add NAME`") }
        for record in operators {
            let state = record.revokedAt.map { "revoked \($0.iso8601)" } ?? "active"
            print("\(record.name)\tcreated \(record.createdAt.iso8601)\t\(state)")
        }
    }
}

/// `bgtrack operator revoke NAME`: the operator's token answers 401 from now on.
struct OperatorRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke an operator: its token answers 401 from now on.")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The operator name.") var name: String

    func run() async throws {
        guard try await database.withStore({ try await $0.revokeOperator(named: name, at: ServerClock.system.now) })
        else {
            throw ValidationError("no active operator named \"\(name)\"; see `bgtrack operator list`")
        }
        print("operator \(name) revoked")
    }
}

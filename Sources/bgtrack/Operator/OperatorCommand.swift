import ArgumentParser
import BackgroundCore
import TrackServer

/// `bgtrack operator add NAME`: an operator token reads every device (map, index, track API).
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator", abstract: "Manage operator tokens (read every device, upload for none).",
        subcommands: [OperatorAdd.self])
}

struct OperatorAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create an operator token and print it (shown only once).")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "A name for the operator (a person or a dashboard).") var name: String

    func run() async throws {
        let token = Tokens.mint(prefix: "bgo")
        do {
            try await database.openStore().addOperator(
                name: name, tokenHash: Tokens.hash(token), at: ServerClock.system.now)
        } catch let error as TrackStoreError {
            throw ValidationError(error.description)
        }
        print("operator \(name) added; its token (shown only this once):")
        print(token)
    }
}

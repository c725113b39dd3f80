import ArgumentParser

@main
struct BGTrack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bgtrack",
        abstract: "Background location tracking for iOS: simulate, compare, sync and serve.",
        subcommands: [
            DemoCommand.self, SimulateCommand.self, CompareCommand.self, PolicyCommand.self, ServeCommand.self,
            DeviceCommand.self,
            OperatorCommand.self, LoadCommand.self, LintPlistCommand.self,
            ShareCommand.self, CleanupCommand.self, ImportCommand.self, TimeZonesCommand.self,
        ]
    )
}

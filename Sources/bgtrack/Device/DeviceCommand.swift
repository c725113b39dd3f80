import ArgumentParser

/// `bgtrack device …`: the Linux device. `run` (the default) records and uploads; the server
/// side adds `add` / `set` / `list` / `revoke` / `delete` to this group.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Run a live Linux device (real store, real HTTP, fixes from a route file) or manage devices.",
        subcommands: [
            DeviceRun.self, DeviceAdd.self, DeviceSet.self, DeviceList.self, DeviceRevoke.self,
            DeviceDelete.self,
        ],
        defaultSubcommand: DeviceRun.self
    )
}

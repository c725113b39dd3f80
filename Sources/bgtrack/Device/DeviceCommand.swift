import ArgumentParser

/// `bgtrack device …`.
///
/// Issue 5 created this group with the server-side subcommands (add, list, revoke). Issue 4 adds
/// the live device as the default subcommand `run`; when merging, keep both lists.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Register, list and revoke the devices the server accepts uploads from.",
        subcommands: [DeviceAdd.self, DeviceList.self, DeviceRevoke.self]
    )
}

import Foundation

/// What the demo keeps between runs in `<data>/demo.json`: the tokens it minted (the server
/// stores only their hashes) and the days it has simulated, so a second run starts the next day.
struct DemoState: Codable, Equatable {
    var device = "demo-iphone"
    var deviceToken: String
    var operatorToken: String
    /// Days already simulated, as `YYYY-MM-DD`.
    var days: [String] = []

    static func load(from url: URL) throws -> DemoState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        do {
            return try JSONDecoder().decode(DemoState.self, from: data)
        } catch {
            throw DemoError(
                "\(url.path) is not a demo state file (\(error)); move it away or pass another --data directory")
        }
    }

    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
        // The tokens in it let anyone upload for the demo device or read every track.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}

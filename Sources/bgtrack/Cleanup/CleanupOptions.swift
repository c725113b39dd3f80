import ArgumentParser
import TrackServer

/// The clean-up rules (issue 25 item 5), shared by `serve` and `cleanup`: a point so flagged is
/// kept and exported, and shown on the map as excluded. Changing them and restarting the server
/// redoes every day's flags (nothing is deleted, so a rule turned off brings its points back).
struct CleanupOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Flag points at exactly (0, 0): on or off.", valueName: "on|off"))
    var flagNullIsland = "on"
    @Option(help: ArgumentHelp("Flag points whose accuracy is worse than this many metres, or off.", valueName: "m"))
    var flagMaxAccuracy = "10000"
    @Option(
        help: ArgumentHelp(
            "Flag a point reached and left at more than this many m/s while its neighbours are within it of "
                + "each other (a lone jump away and back), or off.", valueName: "m/s"))
    var flagMaxSpeed = "300"

    func validate() throws {
        _ = try rules()
    }

    func rules() throws -> CleanupRules {
        do {
            return CleanupRules(
                nullIsland: try CleanupRules.switchValue(flagNullIsland, option: "flag-null-island"),
                maximumAccuracy: try CleanupRules.limit(flagMaxAccuracy, option: "flag-max-accuracy", range: 1...1e7),
                maximumSpeed: try CleanupRules.limit(flagMaxSpeed, option: "flag-max-speed", range: 1...1e6))
        } catch {
            throw ValidationError(error.description)
        }
    }
}

import ArgumentParser

@testable import bgtrack

/// What `bgtrack ARGUMENTS` says when it refuses them, or `nil` when they parse: the flag tests
/// check that a message names the flag, the bad value and what is allowed.
func refusal(_ arguments: [String]) -> String? {
    do {
        _ = try BGTrack.parseAsRoot(arguments)
        return nil
    } catch {
        return BGTrack.message(for: error)
    }
}

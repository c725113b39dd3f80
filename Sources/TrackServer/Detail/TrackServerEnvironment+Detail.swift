extension TrackServerEnvironment {
    /// At start: hands the store the clean-up rules and gap threshold in force; when they changed
    /// since the last run, every stored day is redone with them as it is next read (or by
    /// `bgtrack cleanup`). A store without detail levels has nothing to do.
    public func useDetailRules() async throws {
        guard let detail = store as? any TrackDetailStore else { return }
        _ = try await detail.useDetailRules(
            configuration.cleanupRules.fingerprint(maximumGap: configuration.gapThreshold))
    }
}

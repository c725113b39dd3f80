extension TrackServerEnvironment {
    /// At start: hands the store the clean-up rules and gap threshold in force; when they changed
    /// since the last run, every stored day is redone with them as it is next read (or by
    /// `bgtrack cleanup`).
    public func useDetailRules() async throws {
        _ = try await store.useDetailRules(
            configuration.cleanupRules.fingerprint(maximumGap: configuration.gapThreshold))
    }
}

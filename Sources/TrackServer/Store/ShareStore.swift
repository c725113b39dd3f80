public import BackgroundCore

/// Share links (issue 25): a device's track, live or a range, readable through a secret link.
public protocol ShareStore: Sendable {
    /// Stores a share link. Throws ``TrackStoreError/unknownDevice(_:)`` for an unknown or revoked device.
    func createShare(_ share: NewShareLink, at now: Instant) async throws -> ShareLink
    /// Every share link (of `device` when given), revoked and expired ones included, newest first.
    func shares(device: String?) async throws -> [ShareLink]
    /// The link with this secret hash, whatever its state; `nil` if there is none.
    func share(secretHash: String) async throws -> ShareLink?
    /// Counts one page served through the link.
    func countShareView(id: Int64, at now: Instant) async throws
    /// Revokes a link at once. False if no active link has that id.
    func revokeShare(id: Int64, at now: Instant) async throws -> Bool
}

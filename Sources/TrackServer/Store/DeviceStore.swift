public import BackgroundCore

/// Devices and operators: who may write and read, by the hash of their token (authentication,
/// `bgtrack device` and `bgtrack operator`), and each device's OwnTracks payload key.
public protocol DeviceStore: Sendable {
    /// Registers a device. Throws ``TrackStoreError/duplicateName(_:)`` if the name is taken.
    func addDevice(name: String, tokenHash: String, at now: Instant) async throws -> DeviceRecord
    /// Registers an operator. Throws ``TrackStoreError/duplicateName(_:)`` if the name is taken.
    func addOperator(name: String, tokenHash: String, at now: Instant) async throws
    /// Every operator, revoked ones included, sorted by name.
    func operators() async throws -> [OperatorRecord]
    /// Revokes an operator's token at once. False if there is no active operator of that name.
    func revokeOperator(named name: String, at now: Instant) async throws -> Bool
    /// Every device, revoked ones included, sorted by name.
    func devices() async throws -> [DeviceRecord]
    func device(named name: String) async throws -> DeviceRecord?
    /// Marks the device revoked: its token and sessions stop working and its share links are
    /// revoked with it. False if unknown or already revoked.
    func revokeDevice(named name: String, at now: Instant) async throws -> Bool
    /// Who owns the token hash, ignoring revoked devices and dead sessions at `now`.
    func owner(ofTokenHash hash: String, at now: Instant) async throws -> TokenOwner?
    /// Sets the device's OwnTracks payload key (`nil` removes it): its `_type: "encrypted"`
    /// messages are decrypted with it. False if no device has that name.
    func setOwnTracksKey(device: String, _ key: OwnTracksKey?) async throws -> Bool
    /// The device's OwnTracks payload key, `nil` when none was set (or no such device).
    func ownTracksKey(device: String) async throws -> OwnTracksKey?
}

/// An operator token's owner (the token itself is stored only as a hash).
public struct OperatorRecord: Hashable, Sendable {
    public var name: String
    public var createdAt: Instant
    public var revokedAt: Instant?

    public init(name: String, createdAt: Instant, revokedAt: Instant?) {
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

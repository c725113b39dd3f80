public import BackgroundCore

/// Time zones (issue 37 item 2): where each sample's local day and time are read.
public protocol TimeZoneStore: Sendable {
    /// The zones the device reported (oldest first) and the operator's override; none for an
    /// unknown device.
    func timeZones(device: String) async throws -> DeviceTimeZones
    /// Notes that the device's samples from `since` on were taken in `zone` (an IANA name already
    /// checked), unless that is the zone it reported for `since` already. Unknown device: nothing.
    func noteTimeZone(device: String, zone: String, since: Instant) async throws
    /// Sets (or with `nil` clears) the operator's zone for the device; `false` for an unknown device.
    func setTimeZoneOverride(device: String, _ zone: String?) async throws -> Bool
}

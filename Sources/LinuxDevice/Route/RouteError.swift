import LocationLog

/// A route file cannot be replayed; the message names the file, the place and the fix.
public struct RouteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

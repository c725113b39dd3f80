import LocationLog

/// A route file cannot be replayed; the message names the file, the place and the fix.
package struct RouteError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

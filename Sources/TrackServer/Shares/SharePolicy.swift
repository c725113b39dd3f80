import BackgroundCore

/// The bounds on a share link, the same for `bgtrack share create` and `POST /v1/shares`.
public enum SharePolicy {
    /// A link expires after this unless asked otherwise.
    public static let defaultExpiry: Duration = .seconds(7 * 86_400)
    public static let minimumExpiry: Duration = .seconds(60)
    /// No link lives longer: a forgotten link stops working.
    public static let maximumExpiry: Duration = .seconds(365 * 86_400)
    /// The longest time range a link may show.
    public static let maximumRange: Duration = .seconds(366 * 86_400)

    /// Checks what a new link asks for; the error says what is wrong and how to fix it.
    public static func check(kind: ShareKind, expiresIn: Duration) throws(ShareRequestError) {
        guard expiresIn >= minimumExpiry, expiresIn <= maximumExpiry else {
            throw ShareRequestError(
                "the expiry must be between 1 minute and 365 days (e.g. 7d, 12h, 30m); links cannot live forever")
        }
        if case .range(let from, let to) = kind {
            // Epoch milliseconds of years 1970…9999 first, so no arithmetic on them overflows.
            guard from.milliseconds >= 0, to.milliseconds <= 253_402_300_799_000 else {
                throw ShareRequestError("the range must lie between 1970 and 9999")
            }
            guard from < to else {
                throw ShareRequestError("the range is empty: --from must be before --to")
            }
            guard to - from <= maximumRange else {
                throw ShareRequestError("the range is longer than 366 days; share a shorter from…to")
            }
        }
    }
}

/// A share link request that cannot be served as asked.
public struct ShareRequestError: Error, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

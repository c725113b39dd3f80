/// The secret of a share link: `shr_` and 64 hex digits (256 random bits), in the URL `/s/{secret}`.
/// Only its SHA-256 is stored; the server never logs it (``redacting(path:)``).
public enum ShareSecret {
    static let prefix = "shr_"

    /// A new secret.
    public static func mint() -> String {
        Tokens.mint(prefix: "shr")
    }

    /// Whether `text` has a secret's shape: anything else is answered 404 without a database read.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == prefix.utf8.count + 64, bytes.starts(with: prefix.utf8) else { return false }
        return bytes.dropFirst(prefix.utf8.count).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// `path` with the secret of a share URL replaced by `…`, for logs: `/s/shr_ab…` → `/s/…`.
    public static func redacting(path: String) -> String {
        guard path.hasPrefix("/s/") else { return path }
        let rest = path.dropFirst(3)
        let tail = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        return "/s/…" + tail
    }
}

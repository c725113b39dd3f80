import Foundation

#if canImport(UIKit)
    import Security
#else
    import ShadowSecurity
#endif

/// The device token in the Keychain (issue 40), not in `UserDefaults`: a generic password that is
/// readable after the phone's first unlock (a background relaunch of a locked phone can still
/// upload) and never leaves this device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: not in
/// backups, not restored to another phone).
///
/// ```swift
/// let keychain = TokenKeychain()
/// // Once, for an app that kept the token in UserDefaults before:
/// let token = keychain.migrate(legacy: defaults.string(forKey: "token")) { defaults.removeObject(forKey: "token") }
/// ```
public struct TokenKeychain: Sendable {
    /// The item's service and account (`kSecAttrService`, `kSecAttrAccount`).
    public var service: String
    public var account: String

    public init(service: String = "BackgroundTracker", account: String = "device-token") {
        self.service = service
        self.account = account
    }

    /// A Keychain call failed with `status` (an `OSStatus`, e.g. -25308 `errSecInteractionNotAllowed`
    /// while the phone has not been unlocked since it started).
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var operation: String
        public var status: Int32
        public var description: String { "the Keychain refused to \(operation) the device token (OSStatus \(status))" }
    }

    private var item: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }

    /// The token, or `nil` when none is stored.
    public func read() throws(Failure) -> String? {
        var query = item
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw Failure(operation: "read", status: status) }
        return (result as? Data).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Stores `token`, replacing the one stored; an empty token deletes it.
    public func save(_ token: String) throws(Failure) {
        guard !token.isEmpty else {
            try delete()
            return
        }
        let data = Data(token.utf8)
        let update: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(item as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var attributes = item
            attributes.merge(update) { $1 }
            status = SecItemAdd(attributes as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Failure(operation: "save", status: status) }
    }

    /// Removes the token (none stored is not an error).
    public func delete() throws(Failure) {
        let status = SecItemDelete(item as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Failure(operation: "delete", status: status)
        }
    }

    /// Moves a token an earlier release kept elsewhere (`legacy`, e.g. from `UserDefaults`) into the
    /// Keychain, once: when the Keychain already holds a token it wins and `removeLegacy` runs;
    /// otherwise `legacy` is saved and, only once the save succeeded, `removeLegacy` runs. A save
    /// that fails leaves the old copy where it was, so nothing is lost, and the next launch tries
    /// again. Returns the token to use (`nil` when there is none anywhere).
    public func migrate(legacy: String?, removeLegacy: () -> Void) -> String? {
        let stored = try? read()
        if let stored, !stored.isEmpty {
            if legacy != nil { removeLegacy() }
            return stored
        }
        guard let legacy, !legacy.isEmpty else { return nil }
        do {
            try save(legacy)
        } catch {
            return legacy
        }
        removeLegacy()
        return legacy
    }
}

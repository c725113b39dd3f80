#if !canImport(UIKit)
    import Foundation

    /// Shadow only, not Apple API: the system behind the Keychain's `SecItem` calls.
    public protocol SecurityBackend: AnyObject {
        func secItemAdd(_ attributes: [String: Any]) -> OSStatus
        func secItemCopyMatching(_ query: [String: Any]) -> (OSStatus, AnyObject?)
        func secItemUpdate(_ query: [String: Any], _ attributes: [String: Any]) -> OSStatus
        func secItemDelete(_ query: [String: Any]) -> OSStatus
    }

    extension SecurityBackend {
        /// `SecItemCopyMatching`: the status, with the item written to `result` if one was found.
        func secItemCopyMatching(_ query: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
            let (status, found) = secItemCopyMatching(query)
            result?.pointee = found
            return status
        }
    }

    /// Shadow only: a backend whose keychain is an ``InMemoryKeychain`` (the simulator's and the
    /// tests' fake): the `SecItem` calls forward to it.
    public protocol InMemoryKeychainBackend: SecurityBackend {
        var keychain: InMemoryKeychain { get }
    }

    extension InMemoryKeychainBackend {
        public func secItemAdd(_ attributes: [String: Any]) -> OSStatus { keychain.add(attributes) }
        public func secItemCopyMatching(_ query: [String: Any]) -> (OSStatus, AnyObject?) {
            keychain.copyMatching(query)
        }
        public func secItemUpdate(_ query: [String: Any], _ attributes: [String: Any]) -> OSStatus {
            keychain.update(query, attributes)
        }
        public func secItemDelete(_ query: [String: Any]) -> OSStatus { keychain.delete(query) }
    }

    /// Shadow only: where Security finds its backend.
    public enum SecurityShadow {
        /// The installed backend (`ShadowSystem.backend` in `AppleShadow` sets it).
        nonisolated(unsafe) public static var backend: any SecurityBackend = Uninstalled()

        /// The fail-on-use backend: any use before a real one is installed is a programming error.
        final class Uninstalled: SecurityBackend {
            func secItemAdd(_ attributes: [String: Any]) -> OSStatus { uninstalled() }
            func secItemCopyMatching(_ query: [String: Any]) -> (OSStatus, AnyObject?) { uninstalled() }
            func secItemUpdate(_ query: [String: Any], _ attributes: [String: Any]) -> OSStatus { uninstalled() }
            func secItemDelete(_ query: [String: Any]) -> OSStatus { uninstalled() }
        }
    }

    func uninstalled(_ what: String = #function) -> Never {
        preconditionFailure(
            "AppleShadow: Security's \(what) used before a backend was installed; set ShadowSystem.backend first")
    }

    /// Shadow only: an in-memory keychain of generic passwords, as the simulator and the tests'
    /// fake keep it. Items are found by class, service and account; each keeps its attributes
    /// (its accessibility among them), so a test can check what the app asked for.
    public final class InMemoryKeychain {
        /// Every item, in the order added.
        public private(set) var items: [[String: Any]] = []
        /// When set, every add, update and delete fails with this status (a locked phone, a full
        /// keychain), and nothing changes.
        public var failsWrites: OSStatus?
        /// How many items were added and how many updated, over the keychain's life.
        public private(set) var adds = 0
        public private(set) var updates = 0
        /// `false` from a reboot until the first unlock: no item can be read or written then
        /// (after-first-unlock items included), as their class keys are not yet unwrapped.
        public var protectedDataAvailable = true
        /// `false` while the phone is locked: items of the default accessibility, when-unlocked,
        /// cannot be used then; after-first-unlock items can (docs/ios-policy.md §Protection).
        public var deviceUnlocked = true

        public init() {}

        /// Whether an item of `attributes`' accessibility can be used now. Only the
        /// after-first-unlock classes (`ck`, `cku`) are usable while the phone is locked; an
        /// item without one has the default, when-unlocked.
        private func usable(_ attributes: [String: Any]) -> Bool {
            guard protectedDataAvailable else { return false }
            let accessibility = attributes[kSecAttrAccessible].map { "\($0)" }
            return deviceUnlocked || accessibility == "ck" || accessibility == "cku"
        }

        static let identity = [kSecClass, kSecAttrService, kSecAttrAccount]

        private func index(of query: [String: Any]) -> Int? {
            items.firstIndex { item in
                Self.identity.allSatisfy { key in
                    query[key].map { "\($0)" == item[key].map { "\($0)" } } ?? true
                }
            }
        }

        public func add(_ attributes: [String: Any]) -> OSStatus {
            if let failsWrites { return failsWrites }
            guard usable(attributes) else { return errSecInteractionNotAllowed }
            guard index(of: attributes) == nil else { return errSecDuplicateItem }
            items.append(attributes)
            adds += 1
            return errSecSuccess
        }

        public func copyMatching(_ query: [String: Any]) -> (OSStatus, AnyObject?) {
            guard let found = index(of: query) else { return (errSecItemNotFound, nil) }
            guard usable(items[found]) else { return (errSecInteractionNotAllowed, nil) }
            guard query[kSecReturnData] as? Bool == true else { return (errSecSuccess, nil) }
            return (errSecSuccess, (items[found][kSecValueData] as? Data).map { NSData(data: $0) })
        }

        public func update(_ query: [String: Any], _ attributes: [String: Any]) -> OSStatus {
            if let failsWrites { return failsWrites }
            guard let found = index(of: query) else { return errSecItemNotFound }
            guard usable(items[found]), usable(items[found].merging(attributes) { $1 }) else {
                return errSecInteractionNotAllowed
            }
            items[found].merge(attributes) { $1 }
            updates += 1
            return errSecSuccess
        }

        public func delete(_ query: [String: Any]) -> OSStatus {
            if let failsWrites { return failsWrites }
            guard let found = index(of: query) else { return errSecItemNotFound }
            guard usable(items[found]) else { return errSecInteractionNotAllowed }
            items.remove(at: found)
            return errSecSuccess
        }
    }
#endif

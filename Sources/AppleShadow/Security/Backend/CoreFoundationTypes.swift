#if !canImport(UIKit)
    /// Shadow only, not Apple API: CoreFoundation's types as the Security calls take them. Linux's
    /// Foundation does not export CoreFoundation, so Swift's own types stand in, and the iOS
    /// idiom (`[kSecClass as String: …] as CFDictionary`, `result as? Data`) compiles unchanged.
    public typealias CFString = String
    /// Shadow only: `CFDictionary` (a query or an item's attributes).
    public typealias CFDictionary = [String: Any]
    /// Shadow only: `CFTypeRef` (what `SecItemCopyMatching` returns).
    public typealias CFTypeRef = AnyObject
    /// Shadow only: MacTypes' `OSStatus`.
    public typealias OSStatus = Int32
#endif

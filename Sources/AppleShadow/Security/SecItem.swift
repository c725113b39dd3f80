#if !canImport(UIKit)

    // Keychain items (the device token): the four SecItem calls and the keys and values the
    // shell's `TokenKeychain` passes them. On Linux, CoreFoundation's types are stood in for by
    // Swift's (`Backend/CoreFoundationTypes.swift`), so `query as CFDictionary` reads the same.

    /// Apple: https://developer.apple.com/documentation/security/secitemadd(_:_:)
    public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        SecurityShadow.backend.secItemAdd(attributes)
    }

    /// Apple: https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
    public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        SecurityShadow.backend.secItemCopyMatching(query, result)
    }

    /// Apple: https://developer.apple.com/documentation/security/secitemupdate(_:_:)
    public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
        SecurityShadow.backend.secItemUpdate(query, attributesToUpdate)
    }

    /// Apple: https://developer.apple.com/documentation/security/secitemdelete(_:)
    public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
        SecurityShadow.backend.secItemDelete(query)
    }

    /// Apple: https://developer.apple.com/documentation/security/ksecclass
    public let kSecClass: CFString = "class"
    /// Apple: https://developer.apple.com/documentation/security/ksecclassgenericpassword
    public let kSecClassGenericPassword: CFString = "genp"
    /// Apple: https://developer.apple.com/documentation/security/ksecattrservice
    public let kSecAttrService: CFString = "svce"
    /// Apple: https://developer.apple.com/documentation/security/ksecattraccount
    public let kSecAttrAccount: CFString = "acct"
    /// Apple: https://developer.apple.com/documentation/security/ksecattraccessible
    public let kSecAttrAccessible: CFString = "pdmn"
    /// Apple: https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
    public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
    /// Apple: https://developer.apple.com/documentation/security/ksecvaluedata
    public let kSecValueData: CFString = "v_Data"
    /// Apple: https://developer.apple.com/documentation/security/ksecreturndata
    public let kSecReturnData: CFString = "r_Data"
    /// Apple: https://developer.apple.com/documentation/security/ksecmatchlimit
    public let kSecMatchLimit: CFString = "m_Limit"
    /// Apple: https://developer.apple.com/documentation/security/ksecmatchlimitone
    public let kSecMatchLimitOne: CFString = "m_LimitOne"

    /// Apple: https://developer.apple.com/documentation/security/errsecsuccess
    public var errSecSuccess: OSStatus { 0 }
    /// Apple: https://developer.apple.com/documentation/security/errsecduplicateitem
    public var errSecDuplicateItem: OSStatus { -25299 }
    /// Apple: https://developer.apple.com/documentation/security/errsecitemnotfound
    public var errSecItemNotFound: OSStatus { -25300 }
    /// Apple: https://developer.apple.com/documentation/security/errsecinteractionnotallowed
    public var errSecInteractionNotAllowed: OSStatus { -25308 }
#endif

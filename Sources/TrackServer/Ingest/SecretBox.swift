import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// libsodium's secretbox (XSalsa20-Poly1305), the crypto of OwnTracks' encrypted payloads, loaded
/// at run time with `dlopen`: the server builds without libsodium's headers (a fresh machine has
/// the runtime `libsodium.so.23` but not `libsodium-dev`), and a server without the library still
/// runs and keeps encrypted messages aside with a reason that says what to install.
///
/// Only four functions of libsodium's stable ABI are used (`sodium_init`,
/// `crypto_secretbox_easy`, `crypto_secretbox_open_easy`, `randombytes_buf`); the sizes are
/// libsodium's published constants (`crypto_secretbox_NONCEBYTES` 24, `_MACBYTES` 16,
/// `_KEYBYTES` 32), the same in every release since 0.4.
package struct SecretBox: Sendable {
    package static let nonceBytes = 24
    package static let macBytes = 16
    package static let keyBytes = 32

    private typealias SodiumInit = @convention(c) () -> Int32
    /// `crypto_secretbox_easy(c, m, mlen, n, k)` and `crypto_secretbox_open_easy(m, c, clen, n, k)`.
    private typealias Box =
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?,
            UnsafePointer<UInt8>?
        ) -> Int32
    private typealias RandomBytes = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void

    private let seal: Box
    private let open: Box
    private let random: RandomBytes
    /// The file `dlopen` loaded, for the server's start-up log.
    package let loadedFrom: String

    /// The libraries tried, in order, when `BGTRACK_LIBSODIUM` names none: the runtime package's
    /// soname (Debian and Ubuntu's `libsodium23`), the development symlink, and macOS's names.
    package static let candidates = [
        "libsodium.so.23", "libsodium.so.26", "libsodium.so", "libsodium.23.dylib", "libsodium.dylib",
        "/opt/homebrew/lib/libsodium.dylib", "/usr/local/lib/libsodium.dylib",
    ]

    /// The system's libsodium, loaded once: `BGTRACK_LIBSODIUM` (a path) if set, else ``candidates``.
    package static let system: Result<SecretBox, SecretBoxUnavailable> = {
        if let path = ProcessInfo.processInfo.environment["BGTRACK_LIBSODIUM"], !path.isEmpty {
            return load([path])
        }
        return load(candidates)
    }()

    /// The first of `names` that `dlopen` opens and that has the four functions, initialised.
    package static func load(_ names: [String]) -> Result<SecretBox, SecretBoxUnavailable> {
        var errors: [String] = []
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                errors.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
                continue
            }
            guard let initialise = dlsym(handle, "sodium_init"), let seal = dlsym(handle, "crypto_secretbox_easy"),
                let open = dlsym(handle, "crypto_secretbox_open_easy"), let random = dlsym(handle, "randombytes_buf")
            else {
                errors.append("\(name): not libsodium (crypto_secretbox_easy and its kin are missing)")
                dlclose(handle)
                continue
            }
            // The library stays open for the life of the process: the pointers below live in it.
            guard unsafeBitCast(initialise, to: SodiumInit.self)() >= 0 else {
                errors.append("\(name): sodium_init failed")
                continue
            }
            return .success(
                SecretBox(
                    seal: unsafeBitCast(seal, to: Box.self), open: unsafeBitCast(open, to: Box.self),
                    random: unsafeBitCast(random, to: RandomBytes.self), loadedFrom: name))
        }
        return .failure(SecretBoxUnavailable(tried: names, errors: errors))
    }

    /// `ciphertext` (MAC ‖ box) opened with `nonce` and `key`, or `nil` when it does not open.
    package func open(_ ciphertext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        precondition(nonce.count == Self.nonceBytes && key.count == Self.keyBytes, "secretbox nonce or key size")
        guard ciphertext.count >= Self.macBytes else { return nil }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - Self.macBytes)
        let status = plaintext.withUnsafeMutableBufferPointer { out in
            open(out.baseAddress, ciphertext, UInt64(ciphertext.count), nonce, key)
        }
        return status == 0 ? plaintext : nil
    }

    /// `plaintext` sealed with `nonce` and `key`: MAC ‖ box.
    package func seal(_ plaintext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(nonce.count == Self.nonceBytes && key.count == Self.keyBytes, "secretbox nonce or key size")
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.macBytes)
        _ = ciphertext.withUnsafeMutableBufferPointer { out in
            seal(out.baseAddress, plaintext, UInt64(plaintext.count), nonce, key)
        }
        return ciphertext
    }

    /// `count` bytes from libsodium's CSPRNG (a fresh nonce).
    package func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { random($0.baseAddress, count) }
        return bytes
    }
}

/// Why libsodium could not be loaded, with what to install.
package struct SecretBoxUnavailable: Error, Hashable, CustomStringConvertible {
    package var tried: [String]
    package var errors: [String]

    package var description: String {
        "OwnTracks encryption needs libsodium at run time and none could be loaded (tried "
            + tried.joined(separator: ", ") + (errors.first.map { ": \($0)" } ?? "")
            + "): install it (Debian/Ubuntu: apt-get install libsodium23; Fedora: dnf install libsodium; "
            + "macOS: brew install libsodium), or point BGTRACK_LIBSODIUM at the library file, and restart the server"
    }
}

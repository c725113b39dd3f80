import AppleShadow
import BackgroundCore
import Foundation
import Testing
import TrackerAppModel

@testable import BackgroundTracker

extension ShellSuite {
    /// Issue 40, observation 3: the device token moves from `UserDefaults` to the Keychain (after
    /// first unlock, this device only), once, losing nothing.
    @Suite("The device token in the Keychain")
    @MainActor
    struct TokenKeychainTests {
        nonisolated static let key = "TrackerApp.settings"

        /// A `UserDefaults` of its own, holding the settings an earlier release wrote (token included).
        final class Defaults {
            let name = "bt-keychain-\(UUID().uuidString)"
            let defaults: UserDefaults

            init(token: String?) throws {
                defaults = try #require(UserDefaults(suiteName: name))
                if let token {
                    var settings = TrackerModel.Settings()
                    settings.server = "https://tracks.example.org"
                    settings.token = token
                    defaults.set(try JSONEncoder().encode(settings), forKey: TokenKeychainTests.key)
                }
            }

            var stored: TrackerModel.Settings? {
                defaults.data(forKey: TokenKeychainTests.key).flatMap {
                    try? JSONDecoder().decode(TrackerModel.Settings.self, from: $0)
                }
            }

            deinit { defaults.removePersistentDomain(forName: name) }
        }

        @Test("the token moves to the Keychain once, after first unlock and this device only, and leaves UserDefaults")
        func migratesOnce() throws {
            let system = FakeSystem()
            ShadowSystemInstall.install(system)
            let defaults = try Defaults(token: "secret-token")

            let first = TrackerModel(defaults: defaults.defaults)
            #expect(first.active.token == "secret-token")
            #expect(first.active.server == "https://tracks.example.org", "the other settings are kept")
            #expect(defaults.stored?.token == "", "the old copy is gone from UserDefaults")
            #expect(defaults.stored?.server == "https://tracks.example.org")
            let item = try #require(system.keychain.items.first)
            #expect(item[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly)
            #expect(item[kSecValueData as String] as? Data == Data("secret-token".utf8))

            // The next launches read it from the Keychain and write nothing.
            let second = TrackerModel(defaults: defaults.defaults)
            #expect(second.active.token == "secret-token")
            #expect(system.keychain.adds == 1 && system.keychain.updates == 0)
            #expect(try TokenKeychain(service: "TrackerApp").read() == "secret-token")
        }

        @Test("a Keychain that refuses the write leaves the token in UserDefaults, and a later launch moves it")
        func failedWriteLosesNothing() throws {
            let system = FakeSystem()
            ShadowSystemInstall.install(system)
            system.keychain.failsWrites = errSecInteractionNotAllowed
            let defaults = try Defaults(token: "secret-token")

            let refused = TrackerModel(defaults: defaults.defaults)
            #expect(refused.active.token == "secret-token", "the app still has its token")
            #expect(defaults.stored?.token == "secret-token", "nothing lost: the old copy stays")
            #expect(system.keychain.items.isEmpty)

            system.keychain.failsWrites = nil
            let later = TrackerModel(defaults: defaults.defaults)
            #expect(later.active.token == "secret-token")
            #expect(defaults.stored?.token == "")
            #expect(system.keychain.items.count == 1)
        }

        @Test("after-first-unlock: unreadable from a reboot to the first unlock, readable on a locked phone after it")
        func accessibilityByLockState() throws {
            let system = FakeSystem()
            ShadowSystemInstall.install(system)
            let keychain = TokenKeychain(service: "TrackerApp")
            try keychain.save("secret-token")
            // An item an app added with the default accessibility, when-unlocked.
            let legacy: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Legacy",
                kSecAttrAccount as String: "device-token", kSecValueData as String: Data("old".utf8),
            ]
            #expect(SecItemAdd(legacy as CFDictionary, nil) == errSecSuccess)

            system.keychain.protectedDataAvailable = false  // rebooted, not yet unlocked
            system.keychain.deviceUnlocked = false
            #expect(throws: TokenKeychain.Failure.self) { try keychain.read() }
            system.keychain.protectedDataAvailable = true  // unlocked once, locked again
            #expect(try keychain.read() == "secret-token", "after first unlock: readable in the background")
            #expect(
                throws: TokenKeychain.Failure.self, "when-unlocked: not on a locked phone",
                performing: { try TokenKeychain(service: "Legacy").read() })
            system.keychain.deviceUnlocked = true
            #expect(try TokenKeychain(service: "Legacy").read() == "old")
        }

        @Test("saving the settings puts the token in the Keychain, never in UserDefaults")
        func savingUsesTheKeychain() throws {
            let system = FakeSystem()
            ShadowSystemInstall.install(system)
            let defaults = try Defaults(token: nil)
            let model = TrackerModel(defaults: defaults.defaults)
            #expect(model.active.token == "")
            model.edited.token = "new-token"
            model.saveSettings()
            #expect(defaults.stored?.token == "")
            #expect(try TokenKeychain(service: "TrackerApp").read() == "new-token")
            #expect(TrackerModel(defaults: defaults.defaults).active.token == "new-token")
        }
    }
}

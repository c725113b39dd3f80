package import BackgroundCore
package import Foundation
package import LocationLog

/// Where the iOS shell keeps its store: Application Support (backed up, never purged like
/// Caches), with complete-until-first-user-authentication protection, so background launches
/// after the first unlock can write; the store observes GRDB's suspension notifications
/// (GRDB's DatabaseSharing guide, 0xdead10cc).
package enum StoreLocation {
    static let fileName = "track.sqlite"

    package static var protection: [FileAttributeKey: Any] {
        [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication]
    }

    /// How the shell writes its other files (the state file, upload bodies and their records):
    /// atomically, with the store's protection class, so a relaunch in the background after the
    /// first unlock can read them (issue 40: they had the default class, which a background
    /// launch may not open).
    package static let writing: Data.WritingOptions = [.atomic, .completeFileProtectionUntilFirstUserAuthentication]

    /// Creates `directory` (and its parents) with the store's protection class: files made in it
    /// after that inherit the class.
    package static func createDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: protection)
        protect(directory.path)
    }

    /// `Application Support/BackgroundTracker`.
    package static func defaultDirectory() throws -> URL {
        try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true
        ).appendingPathComponent("BackgroundTracker", isDirectory: true)
    }

    /// Opens the store in `directory`, creating the directory, and protects its files.
    /// - Throws: `StoreError`, or the file system's error when the directory cannot be created.
    package static func open(in directory: URL, now: Instant) throws -> LocationStore {
        try createDirectory(directory)
        let path = directory.appendingPathComponent(fileName).path
        let (store, _) = try LocationStore.open(path: path, now: now, observesSuspension: true)
        for suffix in ["", "-wal", "-shm"] { protect(path + suffix) }
        return store
    }

    /// The class of the held stores a launch before the first unlock after a reboot writes
    /// (Tracker+Unlock): files of it "can be created while the device is locked, but once closed,
    /// cannot be opened again until the device is unlocked" (FileProtectionType.completeUnlessOpen).
    package static var heldProtection: [FileAttributeKey: Any] {
        [.protectionKey: FileProtectionType.completeUnlessOpen]
    }

    /// Opens a new held store in `folder`, made with the held class (files made in it inherit it).
    package static func createHeldStore(in folder: URL, now: Instant) throws -> LocationStore {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: heldProtection)
        let path = folder.appendingPathComponent("held-\(UUID().uuidString).sqlite").path
        let (store, _) = try LocationStore.open(path: path, now: now, observesSuspension: true)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.setAttributes(heldProtection, ofItemAtPath: path + suffix)
        }
        return store
    }

    /// How the launch flags are written: with no protection class, so that a launch before the
    /// first unlock can read them; they say only whether tracking and a session were on.
    package static let launchFlagsWriting: Data.WritingOptions = [.atomic, .noFileProtection]

    /// Data protection exists only on Apple platforms; elsewhere the attribute is ignored, and a
    /// file system that refuses it leaves the file as it is rather than failing the launch.
    private static func protect(_ path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try? FileManager.default.setAttributes(protection, ofItemAtPath: path)
    }
}

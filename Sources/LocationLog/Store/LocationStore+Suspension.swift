import Foundation
import GRDB

extension LocationStore {
    /// Suspends every store opened with `observesSuspension`: from now on it acquires no lock on
    /// its file, so iOS can suspend the app without killing it for holding one (0xdead10cc); a
    /// write while suspended throws instead of blocking (GRDB's `Database.suspendNotification`).
    ///
    /// The iOS shell suspends the store whenever the app is in the background and not running its
    /// own code, and resumes it around each of its own store accesses.
    public static func suspendAll() {
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    }

    /// Lets suspended stores take locks again (GRDB's `Database.resumeNotification`).
    public static func resumeAll() {
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    }
}

#if !canImport(UIKit)
    @_exported public import ShadowAVFAudio
    @_exported public import ShadowBackgroundTasks
    @_exported public import ShadowCoreLocation
    @_exported public import ShadowCoreMotion
    @_exported public import ShadowFoundation
    @_exported public import ShadowMetricKit
    @_exported public import ShadowSecurity
    @_exported public import ShadowUIKit
    @_exported public import ShadowUserNotifications

    /// Shadow only, not Apple API: one system behind every shadow module.
    ///
    /// The shadow has Apple's shape, one module per framework (`ShadowUIKit`, `ShadowCoreLocation`,
    /// `ShadowCoreMotion`, `ShadowBackgroundTasks`, `ShadowUserNotifications`, `ShadowAVFAudio`,
    /// `ShadowFoundation`, `ShadowMetricKit`, `ShadowSecurity`), so a shell file that forgets `import CoreLocation` fails on Linux as it does in Xcode. Each module
    /// forwards what the app asks of iOS to its own backend protocol; a test's fake or the
    /// simulator (`IOSShellHost`) implements all of them and installs itself once here. The backend
    /// calls back into the app through the same objects iOS would use: a location manager's
    /// delegate, a task's expiration handler, a launch handler.
    public typealias ShadowBackend =
        AVFAudioBackend & BackgroundTasksBackend & CoreLocationBackend & CoreMotionBackend & FoundationBackend
        & MetricKitBackend & SecurityBackend & UIKitBackend & UserNotificationsBackend

    /// Shadow only: where the shadow's objects find their backend.
    public enum ShadowSystem {
        nonisolated(unsafe) private static var installed: (any ShadowBackend)?

        /// The installed backend: setting it installs it behind every shadow module. Set once
        /// before the app's code runs (a test's set-up, the simulator's launch); the shadow, like
        /// UIKit, is used from the main thread only, which is why the unchecked globals are safe.
        public static var backend: (any ShadowBackend)? {
            get { installed }
            set {
                installed = newValue
                guard let newValue else { return }
                AVFAudioShadow.backend = newValue
                BackgroundTasksShadow.backend = newValue
                CoreLocationShadow.backend = newValue
                CoreMotionShadow.backend = newValue
                FoundationShadow.backend = newValue
                MetricKitShadow.backend = newValue
                SecurityShadow.backend = newValue
                UIKitShadow.backend = newValue
                UserNotificationsShadow.backend = newValue
            }
        }
    }
#endif

// Builds in Xcode only (SwiftUI, MapKit): see ../README.md. The model it drives,
// ../Model/TrackerModel.swift, is compiled and checked on Linux by `swift build --package-path Tools`.
import SwiftUI

@main
struct TrackerApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup {
            ContentView(model: delegate.model)
        }
        .onChange(of: phase) { _, phase in
            switch phase {
            case .background: delegate.model.didEnterBackground()
            case .active: delegate.model.willEnterForeground()
            default: break
            }
        }
    }
}

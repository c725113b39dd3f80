// Builds in Xcode only (SwiftUI, MapKit).
import BackgroundCore
import LocationLog
import MapKit
import SwiftUI

struct ContentView: View {
    @Bindable var model: TrackerModel
    @State private var diagnostics: URL?

    var body: some View {
        NavigationStack {
            List {
                if let problem = model.problem {
                    Section { Text(problem).foregroundStyle(.red) }
                }
                if model.offersAlwaysUpgrade {
                    Section("Keep tracking when the app is closed") {
                        Text(
                            "With \"Always\", iOS can restart tracking after it closes the app in the background. "
                                + "Your track stays on your phone until your server has it."
                        )
                        Button("Allow in the background") { model.allowTrackingInTheBackground() }
                    }
                }
                Section("Tracking") {
                    HStack {
                        Button("Start") { model.start() }.disabled(model.status.isTracking)
                        Spacer()
                        Button("Stop", role: .destructive) { model.stop() }.disabled(!model.status.isTracking)
                    }
                    if !model.status.isTracking {
                        Text(model.startExplanation).font(.footnote).foregroundStyle(.secondary)
                    }
                    if let notices = model.noticesProblem {
                        Label(notices, systemImage: "bell.slash").foregroundStyle(.orange)
                    }
                    LabeledContent("Last sample", value: model.status.lastSample?.formatted() ?? "none yet")
                    LabeledContent("Waiting to upload", value: "\(model.status.pending)")
                    LabeledContent("Last upload", value: model.status.lastUpload?.formatted() ?? "none yet")
                    ForEach(model.status.notices, id: \.self) { notice in
                        Label(notice.rawValue, systemImage: "exclamationmark.triangle")
                    }
                }
                Section("Last samples on the phone") {
                    Map {
                        MapPolyline(coordinates: model.recent.reversed().map(\.coordinate)).stroke(.blue, lineWidth: 3)
                        if let last = model.recent.first {
                            Annotation("now", coordinate: last.coordinate) { Image(systemName: "location.fill") }
                        }
                    }
                    .frame(height: 260)
                }
                Section("Settings (apply at the next launch)") {
                    TextField("Server", text: $model.edited.server).textInputAutocapitalization(.never)
                    SecureField("Device token", text: $model.edited.token)
                    Picker("Strategy", selection: $model.edited.strategy) {
                        ForEach(model.strategies, id: \.self) { Text($0.rawValue).tag($0.rawValue) }
                    }
                    Button("Save") { model.saveSettings() }.disabled(!model.settingsChanged)
                }
                Section("Diagnostics") {
                    if let diagnostics {
                        ShareLink("Share the report", item: diagnostics)
                    } else {
                        Button("Prepare the report") { diagnostics = try? model.exportDiagnostics() }
                    }
                }
            }
            .navigationTitle("Tracker")
        }
    }
}

extension LocationLog.Sample {
    var coordinate: CLLocationCoordinate2D { .init(latitude: latitude, longitude: longitude) }
}

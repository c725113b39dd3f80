#if canImport(Observation)
    import Foundation
    public import LocationLog
    public import Observation

    /// The tracker as SwiftUI reads it (iOS 17's Observation): a view that reads `status`,
    /// `recentSamples` or `lastUpload` is redrawn when they change, with no stream to iterate.
    ///
    /// ```swift
    /// struct TrackView: View {
    ///     let live: ObservableTracker   // tracker.observable
    ///     var body: some View {
    ///         Text("\(live.status.pending) waiting")
    ///         Map { MapPolyline(coordinates: live.recentSamples.map(\.coordinate)) }
    ///     }
    /// }
    /// ```
    ///
    /// The tracker updates it on the main actor as things happen; it holds the newest
    /// `sampleLimit` samples.
    @MainActor
    @Observable
    public final class ObservableTracker {
        /// The tracker's status.
        public private(set) var status: TrackerStatus
        /// The newest samples stored on the phone, newest first (at most `sampleLimit`).
        public private(set) var recentSamples: [Sample]
        /// The newest upload's result.
        public private(set) var lastUpload: UploadResult?
        /// How many samples `recentSamples` keeps.
        public static let sampleLimit = 500

        init(status: TrackerStatus, recentSamples: [Sample]) {
            self.status = status
            self.recentSamples = Array(recentSamples.prefix(Self.sampleLimit))
        }

        func update(status: TrackerStatus) {
            if status != self.status { self.status = status }
        }

        func stored(_ sample: Sample) {
            recentSamples.insert(sample, at: 0)
            if recentSamples.count > Self.sampleLimit { recentSamples.removeLast() }
        }

        func uploaded(_ result: UploadResult) {
            lastUpload = result
        }
    }

    extension Tracker {
        /// The tracker's state for SwiftUI (made on first use, then kept up to date).
        public var observable: ObservableTracker {
            if let observable = observableStorage as? ObservableTracker { return observable }
            let observable = ObservableTracker(
                status: status, recentSamples: recentSamples(limit: ObservableTracker.sampleLimit))
            observableStorage = observable
            return observable
        }

        /// The model if the app asked for it (nothing to update otherwise).
        var observableIfMade: ObservableTracker? { observableStorage as? ObservableTracker }
    }
#endif

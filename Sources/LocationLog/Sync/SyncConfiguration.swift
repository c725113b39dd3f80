public import BackgroundCore

extension SyncMachine {
    public struct Configuration: Hashable, Sendable {
        /// Upload when this long has passed since the last acknowledged upload (default 30 min).
        public var uploadInterval: Duration
        /// Samples per batch (default 500); also the backlog that triggers an upload at once.
        public var batchSize: Int
        /// First back-off delay (default 5 s); doubles per consecutive failure.
        public var initialBackoff: Duration
        /// Largest back-off delay (default 30 min).
        public var maximumBackoff: Duration
        /// Background time an upload needs at least; none starts with less left (default 30 s).
        public var minimumUploadTime: Duration

        public init(
            uploadInterval: Duration = .seconds(1800), batchSize: Int = 500, initialBackoff: Duration = .seconds(5),
            maximumBackoff: Duration = .seconds(1800), minimumUploadTime: Duration = .seconds(30)
        ) {
            self.uploadInterval = uploadInterval
            self.batchSize = batchSize
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.minimumUploadTime = minimumUploadTime
        }

        /// The upload intervals the device accepts.
        public static let allowedUploadIntervals: ClosedRange<Duration> = .seconds(10) ... .seconds(86_400)
        /// The batch sizes the device accepts.
        public static let allowedBatchSizes: ClosedRange<Int> = 1...10_000

        /// Checks the values; the message names the setting, the value and the allowed range.
        public func validate() throws(ConfigurationError) {
            guard Self.allowedUploadIntervals.contains(uploadInterval) else {
                throw ConfigurationError(
                    "upload interval \(Int(uploadInterval.seconds)) s is outside the allowed 10…86400 s")
            }
            guard Self.allowedBatchSizes.contains(batchSize) else {
                throw ConfigurationError("batch size \(batchSize) is outside the allowed 1…10000 samples")
            }
            guard initialBackoff > .zero, maximumBackoff >= initialBackoff else {
                throw ConfigurationError(
                    "back-off \(initialBackoff)…\(maximumBackoff) must start above 0 and not exceed its maximum")
            }
        }
    }
}

#if !canImport(UIKit)
    public import Foundation

    /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession
    open class AVAudioSession: NSObject {
        private nonisolated(unsafe) static let instance = AVAudioSession()

        override internal init() {}

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/sharedinstance()
        open class func sharedInstance() -> AVAudioSession { instance }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setcategory(_:mode:options:)
        open func setCategory(
            _ category: AVAudioSession.Category, mode: AVAudioSession.Mode,
            options: AVAudioSession.CategoryOptions = []
        ) throws {
            try AVFAudioShadow.backend.audioSessionSetCategory(
                category.rawValue, mode: mode.rawValue, mixesWithOthers: options.contains(.mixWithOthers))
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setactive(_:options:)
        open func setActive(_ active: Bool, options: AVAudioSession.SetActiveOptions = []) throws {
            try AVFAudioShadow.backend.audioSessionSetActive(active)
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct
        public struct Category: Hashable, RawRepresentable, Sendable {
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct/init(rawvalue:)
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct/rawvalue
            public var rawValue: String
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/category-swift.struct/playback
            public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/mode-swift.struct
        public struct Mode: Hashable, RawRepresentable, Sendable {
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/mode-swift.struct/init(rawvalue:)
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/mode-swift.struct/rawvalue
            public var rawValue: String
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/mode-swift.struct/default
            public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/categoryoptions-swift.struct
        public struct CategoryOptions: OptionSet, Sendable {
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/categoryoptions-swift.struct/init(rawvalue:)
            public init(rawValue: UInt) { self.rawValue = rawValue }
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/categoryoptions-swift.struct/rawvalue
            public let rawValue: UInt
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/categoryoptions-swift.struct/mixwithothers
            public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setactiveoptions
        public struct SetActiveOptions: OptionSet, Sendable {
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setactiveoptions/init(rawvalue:)
            public init(rawValue: UInt) { self.rawValue = rawValue }
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setactiveoptions/rawvalue
            public let rawValue: UInt
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/setactiveoptions/notifyothersondeactivation
            public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptionnotification
        public static let interruptionNotification = NSNotification.Name("AVAudioSessionInterruptionNotification")

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptiontype
        public enum InterruptionType: UInt, Sendable {
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptiontype/began
            case began = 1
            /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosession/interruptiontype/ended
            case ended = 0
        }
    }

    /// Apple: https://developer.apple.com/documentation/avfaudio/avaudiosessioninterruptiontypekey
    public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"

    /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer
    open class AVAudioPlayer: NSObject {
        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer/init(data:)
        public init(data: Data) throws {
            super.init()
            try AVFAudioShadow.backend.audioPlayerCreated(ObjectIdentifier(self), bytes: data.count)
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer/numberofloops
        open var numberOfLoops = 0

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer/volume
        open var volume: Float = 1

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer/play()
        @discardableResult
        open func play() -> Bool {
            AVFAudioShadow.backend.audioPlayerPlay(ObjectIdentifier(self), loops: numberOfLoops, volume: volume)
        }

        /// Apple: https://developer.apple.com/documentation/avfaudio/avaudioplayer/stop()
        open func stop() { AVFAudioShadow.backend.audioPlayerStop(ObjectIdentifier(self)) }
    }
#endif

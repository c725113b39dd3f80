#if !canImport(UIKit)
    public import Foundation

    // Shadow only: Core Motion creates activities itself and gives apps no initializer that
    // sets them; a backend needs one to hand them to the app as iOS would.

    extension CMMotionActivity {
        /// Shadow only: an activity as the coprocessor would report it (the flags may combine).
        public convenience init(
            shadowStationary stationary: Bool = false, walking: Bool = false, running: Bool = false,
            automotive: Bool = false, cycling: Bool = false, unknown: Bool = false,
            confidence: CMMotionActivityConfidence, startDate: Date
        ) {
            self.init()
            storedFlags = (stationary, walking, running, automotive, cycling, unknown)
            storedConfidence = confidence
            storedStartDate = startDate
        }
    }
#endif

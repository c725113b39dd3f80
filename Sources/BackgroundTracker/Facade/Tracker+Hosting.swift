import BackgroundCore

#if canImport(UIKit)
    import AVFAudio
    import UIKit
#else
    import ShadowAVFAudio
    import ShadowUIKit
#endif

extension Tracker {
    /// For the simulated iPhone that hosts the shell (`bgtrack simulate`): the system
    /// identifiers of the tasks the keep-alive ledger holds open, in the ledger's order; `nil` for
    /// a task the ledger holds but the shell never got an identifier for (a leak the simulator
    /// reports as a disagreement between the app's ledger and the system).
    package var ledgerTaskIdentifiers: [Int?] {
        (machine?.ledger.openTokens ?? []).map { taskIDs[$0]?.rawValue }
    }
}

extension Tracker {
    /// For the simulator: what the `AVAudioSession.interruptionNotification` observer calls.
    package func hostAudioInterruption(began: Bool) {
        audio?.interrupted(began ? .began : .ended)
    }
}

/// Seed 002 (`location-or-audio`): hold a task, then every 10 s take a one-shot fix when
/// authorised Always, else play 0.2 s of silent audio.
///
/// Silent audio risks App Review rejection (guideline 2.5.4), and short bursts do not keep the
/// app runnable between them.
struct LocationOrAudioStrategy: KeepAliveStrategy {
    static let poke: TimerID = "location-or-audio"

    var name: StrategyName { .locationOrAudio }

    mutating func handle(_ event: KeepAliveEvent, context: inout StrategyContext) -> [KeepAliveMachine.Action] {
        switch event {
        case .enteredBackground:
            return context.handOffTask("location-or-audio") + [context.schedule(Self.poke, after: .seconds(10))]
        case .timerFired(Self.poke) where !context.isForeground:
            let poke: KeepAliveMachine.Action =
                context.environment.authorization == .always ? .requestFix(.best) : .playSilentAudio(.milliseconds(200))
            return [poke, context.schedule(Self.poke, after: .seconds(10))]
        case .enteredForeground:
            return context.endAllTasks() + [.cancelTimer(Self.poke), .stopAudio]
        default:
            return []
        }
    }
}

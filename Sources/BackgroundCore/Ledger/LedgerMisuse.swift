/// A request the ledger refused because it would unbalance begin/end. Reported as an effect so the
/// shell logs it and the simulator counts it; never silently ignored.
public enum LedgerMisuse: Hashable, Sendable, CustomStringConvertible {
    /// `end` for a token this ledger never issued.
    case endOfUnknownTask(BackgroundTaskToken)
    /// `end` for a token that was already ended (by its owner, by expiry or by a hand-off).
    case endOfEndedTask(BackgroundTaskToken, name: String)
    /// More tasks open at once than the system allows (iOS 11+ crashes with 0xbada5e47 near 1000).
    case tooManyOpenTasks(limit: Int)

    public var description: String {
        switch self {
        case .endOfUnknownTask(let token):
            return "end(\(token)) refused: this ledger never began that task"
        case .endOfEndedTask(let token, let name):
            return "end(\(token) \"\(name)\") refused: the task was already ended; end each task exactly once"
        case .tooManyOpenTasks(let limit):
            return "begin refused: \(limit) background tasks are already open; end finished tasks first"
        }
    }
}

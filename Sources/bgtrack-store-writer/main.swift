// The child process of the store kill test (Tests/LocationLogTests/StoreKillTests.swift).
//
// Usage: bgtrack-store-writer DB_PATH [powerLoss]
// Appends samples to the store for ever, one transaction each, and after each `append` returns
// writes the sample id and a newline to stdout in one write(2) (atomic on a pipe), so the parent
// knows exactly which inserts returned before it sends SIGKILL.
import BackgroundCore
import Foundation
import LocationLog

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: bgtrack-store-writer DB_PATH [processCrash|powerLoss]\n".utf8))
    exit(64)
}
let durability = arguments.count > 2 ? LocationStore.Durability(rawValue: arguments[2]) ?? .processCrash : .processCrash
do {
    let start = Instant(milliseconds: 1_732_240_000_000)
    let (store, _) = try LocationStore.open(path: arguments[1], durability: durability, now: start)
    var time = start
    while true {
        time += .seconds(120)
        let fix = LocationFix(timestamp: time, latitude: 31.2304, longitude: 121.4737, horizontalAccuracy: 10)
        let sample = try store.append(fix, trigger: .timer, state: .background)
        FileHandle.standardOutput.write(Data((sample.id.wireString + "\n").utf8))
    }
} catch {
    FileHandle.standardError.write(Data("bgtrack-store-writer: \(error)\n".utf8))
    exit(1)
}

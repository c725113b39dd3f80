// The child process of the store kill test (Tests/LocationLogTests/StoreKillTests.swift).
//
// Usage: bgtrack-store-writer DB_PATH [normal|full|processCrash|powerLoss] [gaps]
// Appends samples to the store for ever, one transaction each, and after each `append` returns
// writes the sample id and a newline to stdout in one write(2) (atomic on a pipe), so the parent
// knows exactly which inserts returned before it sends SIGKILL.
//
// With `gaps` (the gap kill test, Tests/LocationLogTests/GapKillTests.swift): every fourth sample
// comes 30 minutes after the one before, so its `append` also records a suspension gap, reported
// as `G <end ms>`; every eighth step acknowledges the oldest pending gap, reported as
// `A <end ms>` once `acknowledgeGaps` returned.
import BackgroundCore
import Foundation
import LocationLog

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(
        Data("usage: bgtrack-store-writer DB_PATH [normal|full|processCrash|powerLoss]\n".utf8))
    exit(64)
}
// The durability's raw value (`normal`, `full`) or its case name; the phone's default otherwise.
let durability =
    arguments.count > 2
    ? Durability(rawValue: arguments[2]) ?? Durability.allCases.first { "\($0)" == arguments[2] } ?? .processCrash
    : .processCrash
do {
    let start = Instant(milliseconds: 1_732_240_000_000)
    let (store, _) = try LocationStore.open(path: arguments[1], durability: durability, now: start)
    let gaps = arguments.count > 3 && arguments[3] == "gaps"
    // Gap mode goes on from the last sample, so a restarted writer's times keep increasing.
    var time = gaps ? try store.newestSampleTime() ?? start : start
    var step = 0
    while true {
        step += 1
        let jump = gaps && step % 4 == 0
        time += .seconds(jump ? 1800 : 120)
        let fix = LocationFix(timestamp: time, latitude: 31.2304, longitude: 121.4737, horizontalAccuracy: 10)
        let sample = try store.append(fix, trigger: .timer, state: .background)
        guard gaps else {
            FileHandle.standardOutput.write(Data((sample.id.wireString + "\n").utf8))
            continue
        }
        if jump { FileHandle.standardOutput.write(Data("G \(time.milliseconds)\n".utf8)) }
        if step % 8 == 0, let oldest = try store.pendingGaps(limit: 1).first {
            // Said before the acknowledgement: a kill between it and `A` leaves the gap either
            // pending or acknowledged, and the test accepts both for this one gap only.
            FileHandle.standardOutput.write(Data("a \(oldest.interval.end.milliseconds)\n".utf8))
            try store.acknowledgeGaps([oldest.id])
            FileHandle.standardOutput.write(Data("A \(oldest.interval.end.milliseconds)\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("bgtrack-store-writer: \(error)\n".utf8))
    exit(1)
}

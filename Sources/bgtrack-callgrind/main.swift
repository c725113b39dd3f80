import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator

// `bgtrack compare`'s 90-row matrix, run synchronously on the main thread: valgrind 3.19 cannot
// run `bgtrack` itself (its async main parks the main thread in `dispatchMain`, where callgrind
// crashes), so instruction counts come from this. `bgtrack-callgrind` prints the same JSON as
// `bgtrack compare --format json`; an argument (a strategy) runs that strategy's rows only, for a
// quicker profile (see the compare matrix in BENCHMARKS.md). `bgtrack-callgrind sensitivity
// [strategy]` prints `bgtrack compare --sensitivity`'s table instead, and on stderr how many of
// its days it simulated.
var arguments = Array(CommandLine.arguments.dropFirst())
let sensitivity = arguments.first == "sensitivity"
if sensitivity { arguments.removeFirst() }
let strategies = arguments.first.flatMap(StrategyName.init(rawValue:)).map { [$0] }
let commute = Scenario.named("commute") ?? .commute()
if sensitivity {
    let setup = Sensitivity.Setup(
        ios: 17, app: IOSShell(), scenario: commute, strategies: strategies ?? StrategyName.allCases)
    let (study, simulated) = MainActor.assumeIsolated { Sensitivity.study(setup) }
    print(Sensitivity.table(study))
    FileHandle.standardError.write(Data("\(simulated) of \(Sensitivity.runCount(setup)) days simulated\n".utf8))
} else {
    let configurations = Comparison.configurations(
        hours: 24, seed: 1, app: IOSShell(), scenario: commute,
        strategies: strategies ?? StrategyName.allCases)
    let reports = MainActor.assumeIsolated { Comparison.run(configurations) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(reports), as: UTF8.self))
}

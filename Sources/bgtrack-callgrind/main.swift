import BackgroundCore
import Foundation
import IOSShellHost
import IOSSimulator

// `bgtrack compare`'s 90-row matrix, run synchronously on the main thread: valgrind 3.19 cannot
// run `bgtrack` itself (its async main parks the main thread in `dispatchMain`, where callgrind
// crashes), so instruction counts come from this. `bgtrack-callgrind ios|direct|auto` prints the
// same JSON as `bgtrack compare --shell … --format json`; a second argument (a strategy) runs
// that strategy's rows only, for a quicker profile (see the compare matrix in BENCHMARKS.md).
let shell = CommandLine.arguments.dropFirst().first ?? "ios"
let strategies = CommandLine.arguments.dropFirst(2).first.flatMap(StrategyName.init(rawValue:)).map { [$0] }
let configurations = Comparison.configurations(
    hours: 24, seed: 1, scenario: Scenario.named("commute") ?? .commute(),
    strategies: strategies ?? StrategyName.allCases
).map {
    var configuration = $0
    let app: (any HostedAppFactory)? =
        switch shell {
        case "direct": nil
        case "auto": configuration.ios >= 17 ? IOSShell() : nil
        default: IOSShell()
        }
    configuration.app = app
    if app != nil { configuration.uploadSession = .background }
    return configuration
}
let reports = MainActor.assumeIsolated { Comparison.run(configurations) }
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
print(String(decoding: try encoder.encode(reports), as: UTF8.self))

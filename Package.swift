// swift-tools-version:6.1
import PackageDescription

// The library an app adds: the background machines, the phone's store and sync, and the iOS shell.
// It depends on GRDB alone, so an app that adds this package with Xcode's defaults fetches GRDB
// and nothing else. The server, the CLI (`bgtrack`), the simulator, the benchmarks and every test
// are the tools package in `Tools/`, which compiles these same targets from the same folders:
//
//     swift run --package-path Tools bgtrack demo
//     swift test --package-path Tools --disable-xctest
//
// Keep the targets below in step with their copies in Tools/Package.swift (the suite
// "Package manifests" checks that they are).

/// Settings every target shares: Swift 6 mode plus the upcoming features the style guide asks for.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The shadow of Apple's API (Linux and macOS builds): module name and folder under
/// `Sources/AppleShadow`, one per framework the iOS shell imports.
let shadowModules: [(name: String, folder: String)] = [
    ("ShadowAVFAudio", "AVFAudio"), ("ShadowBackgroundTasks", "BackgroundTasks"),
    ("ShadowCoreLocation", "CoreLocation"), ("ShadowCoreMotion", "CoreMotion"), ("ShadowFoundation", "Foundation"),
    ("ShadowMetricKit", "MetricKit"), ("ShadowSecurity", "Security"), ("ShadowUIKit", "UIKit"),
    ("ShadowUserNotifications", "UserNotifications"),
]

/// What the shell's code depends on where iOS's frameworks are not: the shadow's modules.
let shadowDependencies: [Target.Dependency] = shadowModules.map {
    .target(name: $0.name, condition: .when(platforms: [.linux, .macOS]))
}

let package = Package(
    name: "BackgroundTracker",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "BackgroundCore", targets: ["BackgroundCore"]),
        .library(name: "LocationLog", targets: ["LocationLog"]),
        // The iOS shell an app links (issue 10): the façade and the adapters over Apple's frameworks.
        .library(name: "BackgroundTracker", targets: ["BackgroundTracker"]),
    ],
    dependencies: [
        // The one package an app links through the library: a range, so it resolves beside an app's own GRDB 7.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0")
    ],
    targets: [
        .target(name: "BackgroundCore", swiftSettings: strictSettings),
        // zlib from the system (libz is in every Linux base image and in the Apple SDKs): gzip payloads.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(
            name: "LocationLog",
            dependencies: ["BackgroundCore", "CZlib", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
    ] + shadowModules.map { name, folder in
        .target(name: name, path: "Sources/AppleShadow/\(folder)", swiftSettings: strictSettings)
    } + [
        .target(
            name: "BackgroundTracker",
            dependencies: ["BackgroundCore", "LocationLog"] + shadowDependencies,
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        )
    ],
    swiftLanguageModes: [.v6]
)

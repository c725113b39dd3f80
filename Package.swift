// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: Swift 6 mode plus the upcoming features the style guide asks for.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BackgroundTracker",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "BackgroundCore", targets: ["BackgroundCore"]),
        .library(name: "IOSSimulator", targets: ["IOSSimulator"]),
        .library(name: "TrackServer", targets: ["TrackServer"]),
        .executable(name: "bgtrack", targets: ["bgtrack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // TrackServer (issue 5). Hummingbird without the swift-configuration trait: it is not used
        // and costs build time on these machines.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
    ],
    targets: [
        .target(name: "BackgroundCore", swiftSettings: strictSettings),
        .target(name: "IOSSimulator", dependencies: ["BackgroundCore"], swiftSettings: strictSettings),
        .target(
            name: "TrackServer",
            dependencies: [
                "BackgroundCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "bgtrack",
            dependencies: [
                "BackgroundCore",
                "IOSSimulator",
                "TrackServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "bgtrack-bench",
            dependencies: [
                "BackgroundCore",
                "IOSSimulator",
                "TrackServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "BackgroundCoreTests", dependencies: ["BackgroundCore"], swiftSettings: strictSettings),
        .testTarget(name: "IOSSimulatorTests", dependencies: ["IOSSimulator"], swiftSettings: strictSettings),
        .testTarget(
            name: "TrackServerTests",
            dependencies: [
                "TrackServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

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
        .executable(name: "bgtrack", targets: ["bgtrack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "BackgroundCore", swiftSettings: strictSettings),
        .target(name: "IOSSimulator", dependencies: ["BackgroundCore"], swiftSettings: strictSettings),
        .executableTarget(
            name: "bgtrack",
            dependencies: [
                "BackgroundCore",
                "IOSSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "bgtrack-bench",
            dependencies: [
                "BackgroundCore",
                "IOSSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "BackgroundCoreTests", dependencies: ["BackgroundCore"], swiftSettings: strictSettings),
        .testTarget(name: "IOSSimulatorTests", dependencies: ["IOSSimulator"], swiftSettings: strictSettings),
        .testTarget(
            name: "bgtrackTests",
            dependencies: ["bgtrack", "BackgroundCore", "IOSSimulator", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.1
import PackageDescription

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

// The repository's tools package: the server, the CLI, the simulator, the benchmarks and every
// test, beside the library package at the repository's root (which an app adds, and which
// fetches GRDB alone). `Sources`, `Tests` and `Examples` here are links to the root's folders:
// this package compiles the library's targets itself, so `package` declarations reach the tools.
//
//     swift run --package-path Tools bgtrack demo
//     swift test --package-path Tools --disable-xctest
//
// PostgreSQL is the `Postgres` trait (`--traits Postgres`): without it `bgtrack` builds on SQLite
// alone and compiles neither PostgresNIO nor NIO-SSL's copy of BoringSSL (swift-crypto's is built
// for SHA-256, docs/development.md).
let package = Package(
    name: "BackgroundTrackerTools",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "bgtrack", targets: ["bgtrack"]),
        .executable(name: "bgtrack-bench", targets: ["bgtrack-bench"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "`bgtrack serve|device|operator --postgres URL`: the PostgreSQL store in the CLI "
                + "(PostgresNIO, NIO-SSL and swift-crypto). Off by default so `bgtrack demo` builds on SQLite alone."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The one package an app links through the library: a range, so it resolves beside an app's own GRDB 7.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // TrackServer (issue 5). Hummingbird without the swift-configuration trait: it is not used
        // and costs build time on these machines.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already in the graph through Hummingbird; `bgtrack demo` stops and restarts its server gracefully.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation --target BackgroundTracker` (the DocC articles).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The PostgreSQL store (issue 13), in its own target so an app embedding the SQLite server
        // does not compile PostgresNIO and its TLS and crypto stack.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Already in the graph through Hummingbird; declared because the server, the tools and the
        // tests import HTTPTypes, NIOCore, NIOPosix, NIOEmbedded and NIOHTTPTypes themselves.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        // SHA-256 of tokens and imports (issue 42). Already in the `Postgres` build through
        // PostgresNIO; in the default build it adds BoringSSL's C to the first build (about 2 more
        // minutes of CPU for `bgtrack`, docs/development.md).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(name: "BackgroundCore", swiftSettings: strictSettings),
        .target(
            name: "IOSSimulator",
            // LocationLogTesting: the phone's disk that fills (`SimulatedDisk`, an SQLite VFS).
            // TrackGeometry: the timeline the evaluation scores (issue 42; no app links either).
            dependencies: ["BackgroundCore", "LocationLog", "LocationLogTesting", "TrackGeometry"],
            swiftSettings: strictSettings),
        // zlib from the system (libz is in every Linux base image and in the Apple SDKs): gzip payloads.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(
            name: "LocationLog",
            dependencies: ["BackgroundCore", "CZlib", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // The server's geometry, the timeline and its exports (issue 42): simplification, detail
        // levels, gaps, encoded polylines, stays and trips (`TimelineBuilder`), GeoJSON/GPX/CSV.
        // Not in the library: no app links it.
        .target(name: "TrackGeometry", dependencies: ["BackgroundCore", "LocationLog"], swiftSettings: strictSettings),
        .target(
            name: "TrackServer",
            dependencies: [
                "BackgroundCore",
                "LocationLog",
                "TrackGeometry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // `GET /openapi.yaml` serves this file as it is; the pages' scripts and styles
            // (`PageAssets`). SwiftPM puts both in `BackgroundTrackerTools_TrackServer.resources`
            // beside the executable, which an install copies with it (docs/server.md §Installing).
            resources: [.copy("App/openapi.yaml"), .copy("Pages/Assets")],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL store: several stateless `bgtrack serve` processes on one database.
        .target(
            name: "TrackServerPostgres",
            dependencies: [
                "BackgroundCore",
                "LocationLog",
                "TrackGeometry",
                "TrackServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The live Linux "phone" (`bgtrack device`, `bgtrack demo`): URLSession transports for the
        // native and client protocols, the device loop and route files. Not on the phone.
        .target(name: "LinuxDevice", dependencies: ["BackgroundCore", "LocationLog"], swiftSettings: strictSettings),
        // Linux only in content: exactly the Apple API the iOS shell uses, each declaration citing its
        // documentation page, one module per Apple framework (so a forgotten import fails here as in
        // Xcode), each forwarding to a backend that tests and the simulator (IOSShellHost) provide.
        // `AppleShadow` re-exports them all and installs one backend behind every module. On Apple
        // platforms every file compiles to nothing and the shell imports the real frameworks.
    ] + shadowModules.map { name, folder in
        .target(name: name, path: "Sources/AppleShadow/\(folder)", swiftSettings: strictSettings)
    } + [
        .target(
            name: "AppleShadow", dependencies: shadowModules.map { .target(name: $0.name) },
            path: "Sources/AppleShadow/Backend", swiftSettings: strictSettings),
        .target(
            name: "BackgroundTracker",
            dependencies: ["BackgroundCore", "LocationLog"] + shadowDependencies,
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // `bgtrack simulate`: the simulated iPhone hosts the iOS shell through AppleShadow.
        .target(
            name: "IOSShellHost",
            dependencies: [
                "AppleShadow", "BackgroundCore", "BackgroundTracker", "IOSSimulator", "LocationLog",
            ],
            swiftSettings: strictSettings
        ),
        // The example app's model (Examples/TrackerApp/Model): the code of the app that touches the
        // library, compiled here against AppleShadow; the SwiftUI views build only in Xcode.
        .target(
            name: "TrackerAppModel",
            dependencies: ["BackgroundCore", "BackgroundTracker", "LocationLog"] + shadowDependencies,
            path: "Examples/TrackerApp/Model",
            swiftSettings: strictSettings
        ),
        // The loopback HTTP load generator of `bgtrack load` and `bgtrack-bench`: blocking keep-alive
        // sockets on threads (wrk-like), simulated devices for every ingest protocol.
        .target(name: "LoadGenerator", dependencies: ["BackgroundCore", "LocationLog"], swiftSettings: strictSettings),
        // The raw PostgreSQL baselines of `bgtrack-bench postgres` (COPY text, the store's earlier
        // statements): a library, so the tests of their row encodings depend on no executable.
        .target(
            name: "PostgresBaselines",
            dependencies: [
                "BackgroundCore", "TrackServer", "TrackServerPostgres", .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The real server on loopback for simulated phones: the timeline evaluation's server and
        // peer (issue 24 item 2) and the session client `bgtrack demo`'s phone shares with it; a
        // library, so `bgtrack-bench timeline` and the CI test share it and no test depends on an
        // executable.
        .target(
            name: "LoopbackServer",
            dependencies: [
                "BackgroundCore", "IOSSimulator", "LinuxDevice", "LocationLog", "TrackGeometry", "TrackServer",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationLogTesting", dependencies: ["BackgroundCore", "LocationLog", "SQLiteFullDisk"],
            swiftSettings: strictSettings),
        // Test only: a SQLite VFS that throws away unsynced writes at a simulated power cut (issue 9).
        .target(name: "SQLitePowerCut", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Test only: a SQLite VFS on a disk with little free space, where even the WAL cannot grow (issue 40).
        .target(name: "SQLiteFullDisk", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The child process of the store kill test: writes samples and prints each committed id.
        .executableTarget(
            name: "bgtrack-store-writer", dependencies: ["BackgroundCore", "LocationLog"], swiftSettings: strictSettings),
        .executableTarget(
            name: "bgtrack",
            dependencies: [
                "BackgroundCore",
                "IOSSimulator",
                "IOSShellHost",
                "LocationLog",
                "LinuxDevice",
                "LoadGenerator",
                "LoopbackServer",
                "TrackGeometry",
                "TrackServer",
                .target(name: "TrackServerPostgres", condition: .when(traits: ["Postgres"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                // `bgtrack import`'s fingerprint of a file.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "bgtrack-callgrind", dependencies: ["BackgroundCore", "IOSShellHost", "IOSSimulator"],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "bgtrack-bench",
            dependencies: [
                "BackgroundCore",
                "IOSShellHost",
                "IOSSimulator",
                "LinuxDevice",
                "LoadGenerator",
                "LocationLog",
                "PostgresBaselines",
                "LoopbackServer",
                "TrackGeometry",
                "TrackServer",
                "TrackServerPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "BackgroundCoreTests", dependencies: ["BackgroundCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "BackgroundTrackerTests",
            dependencies: [
                "BackgroundTracker", "AppleShadow", "BackgroundCore", "IOSShellHost", "IOSSimulator", "LocationLog",
                "LocationLogTesting",
                // The example app's model: its token's move to the Keychain.
                "TrackerAppModel",
                // A store on a database that cannot grow: the disk-full path of the shell.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IOSSimulatorTests",
            dependencies: ["BackgroundCore", "IOSShellHost", "IOSSimulator", "LocationLog", "TrackGeometry"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "bgtrackTests",
            dependencies: [
                "bgtrack", "BackgroundCore", "IOSShellHost", "IOSSimulator", "LocationLog", "LocationLogTesting", "LinuxDevice",
                "LoadGenerator", "TrackGeometry", "TrackServer", "TrackServerPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LocationLogTests",
            dependencies: [
                "BackgroundCore", "LocationLog", "LocationLogTesting", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TrackGeometryTests", dependencies: ["BackgroundCore", "LocationLog", "TrackGeometry"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LinuxDeviceTests",
            // TrackGeometry: the route files the tests write are the server's GPX and CSV exports.
            dependencies: ["BackgroundCore", "LinuxDevice", "LocationLog", "LocationLogTesting", "TrackGeometry"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TrackServerTests",
            dependencies: [
                "BackgroundCore",
                "TrackGeometry",
                "TrackServer",
                "TrackServerPostgres",
                "LocationLog",
                "LocationLogTesting",
                // The simulated server, one of the judges of the sample rules cross-validator.
                "IOSSimulator",
                // The iOS shell the timeline evaluation runs through the simulator.
                "IOSShellHost",
                "LinuxDevice",
                "SQLitePowerCut",
                // `bgtrack-bench postgres`'s COPY rows, round-tripped through a live PostgreSQL.
                "PostgresBaselines",
                "LoopbackServer",
                // A raw HTTP/1.1 client: pipelined requests against the single-point lane.
                "LoadGenerator",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// cockpitd — a cockpit appliance daemon for light aircraft. Not certified avionics.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The modules every replay runs through, optimised in the debug build too: the tests replay whole recorded flights
// through them hundreds of times, and unoptimised they run about six times slower than shipped. Still built with
// -enable-testing (debug), so `@testable import` works; `assert` is off in them as in the shipped build.
let strictOptimised: [SwiftSetting] = strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

// The daemon's release link (docs/performance.md, "Idle memory"): lld with a symbol-ordering file that puts the code
// start-up and flight run together (Packaging/link/cockpitd.order, made by Scripts/link-order.sh), relative
// relocations packed (DT_RELR: glibc 2.36, Debian 12 and Raspberry Pi OS bookworm), and no dynamic symbol table of
// every Swift symbol. Together they took the idle static daemon from about 20.4 to about 14 MiB resident; with one
// section per function (Scripts/release-build.sh) and the compiler's unnamed functions gathered in one place
// (Packaging/link/cockpitd-text.ld), to about 12 MiB. Stale names in the ordering file only cost locality, never
// correctness, so the linker is told not to warn about them.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))
let daemonReleaseLink: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--no-export-dynamic",
        "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Packaging/link/cockpitd.order",
        "-Xlinker", "--no-warn-symbol-ordering",
        // The compiler's unnamed local functions gathered in front of the code (a linker script that only adds a
        // section; it matters with the per-function sections Scripts/release-build.sh asks for).
        "-Xlinker", "\(packageDirectory)/Packaging/link/cockpitd-text.ld",
    ], .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "cockpitd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "cockpitd", targets: ["cockpitd"]),
        .executable(name: "cockpitctl", targets: ["cockpitctl"]),
        .executable(name: "cockpit-relay", targets: ["cockpit-relay"]),
        .executable(name: "cockpit-web", targets: ["cockpit-web"]),
        .executable(name: "cockpit-data-update", targets: ["cockpit-data-update"]),
        // Bytes-in entry points for the fuzz package under Fuzz/ (docs/fuzzing.md).
        .library(name: "CockpitFuzzTargets", targets: ["CockpitFuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        // Server-only: the traffic relay's scale-out store. Never a dependency of cockpitd's targets.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to the relay's database (postgres-nio's own TLS library, named so the relay can configure it).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
    ],
    targets: [
        // C libraries, through thin module maps (apt providers name the Debian -dev packages).
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CSpawn"),   // posix_spawn_file_actions_addclosefrom_np (a GNU extension of <spawn.h>)
        .systemLibrary(name: "CSignal"),  // SIGINT/SIGTERM into a pipe from an async-signal-safe C handler (SignalWaiter)
        .systemLibrary(name: "CEpoll"),   // <sys/epoll.h>: the relay's load generator waits on thousands of sockets
        .systemLibrary(name: "CMalloc"),  // <malloc.h>: mallopt and malloc_trim, for the daemon's idle memory
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),  // gunzip of terrain tiles (cockpit-data-update)
        .systemLibrary(name: "CThread"),  // prctl(PR_SET_NAME): BackgroundThread names its threads

        // Pure domain: no I/O, no clocks, no globals, no Foundation.
        .target(
            name: "CockpitCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: strictOptimised
        ),

        // Pure wire decoders: the raw records an input writes to a recording and their decoding into core events (gpsd's
        // JSON, traffic datagrams, SBS, FLARM NMEA, OGN APRS). No I/O: live mode, replay, the fuzz targets and the relay
        // share them.
        .target(
            name: "CockpitWire",
            dependencies: ["CockpitCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictOptimised
        ),

        // The control protocol shared by the daemon and cockpitctl: envelope, version, error codes, request types.
        .target(name: "CockpitProtocol", dependencies: ["CockpitCore"], swiftSettings: strict),

        // Adapters: SQLite, files, sockets, logging, recording and replay sources — what the relay server shares.
        .target(
            name: "CockpitIO",
            dependencies: [
                "CockpitCore", "CockpitWire", "CockpitProtocol", "CSQLite", "CSpawn", "CSignal", "CThread",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictOptimised
        ),

        // The aircraft's devices: the gpsd connection, the BMP280 (I2C, IIO), ALSA and GPIO lines. Their bytes are
        // decoded in CockpitWire. Apart from CockpitIO so that the relay server links none of libgps, libi2c, libasound,
        // libgpiod.
        .target(
            name: "CockpitDevices",
            dependencies: [
                "CockpitCore", "CockpitWire", "CockpitIO", "CGPS", "CI2C", "CALSA", "CGPIOD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // Wiring: one runner that live mode and replay both drive.
        .target(
            name: "CockpitDaemon",
            dependencies: [
                "CockpitCore", "CockpitWire", "CockpitIO", "CockpitDevices", "CockpitProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictOptimised
        ),

        // Blocking control-socket client and panel renderer used by cockpitctl (and the tests).
        .target(name: "CockpitClient", dependencies: ["CockpitCore", "CockpitProtocol"], swiftSettings: strictOptimised),

        .executableTarget(
            name: "cockpitd",
            dependencies: [
                "CockpitDaemon", "CockpitIO", "CockpitWire", "CockpitDevices", "CockpitCore", "CockpitProtocol", "CockpitClient", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            linkerSettings: daemonReleaseLink
        ),
        .executableTarget(
            name: "cockpitctl",
            dependencies: [
                "CockpitClient", "CockpitCore", "CockpitProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The pilot's web page (docs/web.md): its own executable beside cockpitd, on swift-nio's own HTTP/1.1 codec, so
        // that nothing HTTP is linked into the daemon and no package is added (CI builds every dependency from scratch).
        .target(
            name: "CockpitWeb",
            dependencies: [
                "CockpitCore", "CockpitProtocol", "CockpitClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            // The page itself: HTML, CSS and JavaScript files in Page/, made into static strings of the binary at
            // build time by the EmbedPage plugin (docs/web.md, "Where the page lives").
            exclude: ["Page"],
            swiftSettings: strict,
            plugins: ["EmbedPage"]
        ),
        // Its command is a shell script (Plugins/EmbedPage/embed-page.sh): a Swift tool would be built with the fuzzing
        // build's sanitizer flags too, and libFuzzer's own `main` cannot link into an ordinary executable.
        .plugin(name: "EmbedPage", capability: .buildTool(), path: "Plugins/EmbedPage", exclude: ["embed-page.sh"]),
        .executableTarget(
            name: "cockpit-web",
            dependencies: ["CockpitWeb", "CockpitProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // `cockpitd data update` (docs/data-update.md): airfields and terrain tiles fetched over HTTP with
        // FoundationNetworking's URLSession (libcurl), in a program of its own so that the daemon links no HTTP client.
        .target(
            name: "CockpitDataUpdate",
            dependencies: ["CockpitCore", "CockpitIO", "CockpitClient", "CockpitProtocol", "CZlib"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cockpit-data-update",
            dependencies: ["CockpitDataUpdate", "CockpitIO", "CockpitProtocol",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // The traffic relay: a server, not part of the Pi binary.
        .target(
            name: "CockpitRelay",
            dependencies: [
                "CockpitCore", "CockpitWire", "CockpitIO",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cockpit-relay",
            dependencies: [
                "CockpitRelay", "CockpitWire", "CockpitCore", "CockpitIO", "CockpitProtocol", "CockpitClient", "CEpoll",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cockpit-bench",
            dependencies: ["CockpitDaemon", "CockpitIO", "CockpitDevices", "CockpitWire", "CockpitCore", "CockpitClient", "CockpitProtocol",
                           "CockpitTestSupport"],
            path: "Benchmarks/cockpit-bench",
            swiftSettings: strict
        ),

        // One entry function per input surface (bytes in, never traps): driven by libFuzzer from Fuzz/ and by the
        // corpus replay test in the normal suite.
        .target(
            name: "CockpitFuzzTargets",
            dependencies: [
                "CockpitCore", "CockpitWire", "CockpitIO", "CockpitDevices", "CockpitProtocol", "CockpitDaemon", "CockpitTestSupport", "CockpitWeb",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // Test-only code shared by every test target (fixture paths, child processes, waiting, a seeded generator), as
        // swift-nio ships NIOTestUtils: never a dependency of a shipped binary.
        .target(
            name: "CockpitTestSupport",
            dependencies: ["CockpitCore", "CockpitWire", "CockpitIO", "CockpitDevices", "CGPS", .product(name: "Logging", package: "swift-log")],
            path: "Tests/CockpitTestSupport",
            swiftSettings: strict
        ),
        // The whole daemon on NIO's embedded event loop with a virtual clock (EmbeddedDaemon), for daemon-level tests
        // that feed lines and advance time instead of spawning cockpitd and sleeping. Test-only, as NIOEmbedded is.
        .target(
            name: "CockpitEmbedded",
            dependencies: ["CockpitDaemon", "CockpitCore", "CockpitWire", "CockpitIO", "CockpitTestSupport",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio")],
            path: "Tests/CockpitEmbedded",
            swiftSettings: strict
        ),

        .testTarget(name: "CockpitFuzzTargetsTests", dependencies: ["CockpitFuzzTargets", "CockpitWire", "CockpitIO", "CockpitDevices", "CockpitTestSupport"], swiftSettings: strict),
        .testTarget(name: "CockpitWireTests", dependencies: ["CockpitWire", "CockpitCore", "CockpitIO", "CockpitTestSupport"], swiftSettings: strict),
        .testTarget(name: "CockpitCoreTests", dependencies: ["CockpitCore", "CockpitWire", "CockpitTestSupport"], swiftSettings: strict),
        // The radar's pure geometry and drawing.
        .testTarget(name: "CockpitClientTests", dependencies: ["CockpitClient", "CockpitCore", "CockpitTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "CockpitIOTests",
            dependencies: ["CockpitIO", "CockpitWire", "CockpitDevices", "CockpitCore", "CockpitProtocol", "CockpitTestSupport",
                           .product(name: "NIOEmbedded", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CockpitDaemonTests",
            dependencies: ["CockpitDaemon", "CockpitWire", "CockpitIO", "CockpitDevices", "CockpitCore", "CockpitClient", "CockpitProtocol", "cockpitd", "cockpitctl",
                           "CockpitTestSupport", "CockpitEmbedded",
                           .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CockpitWebTests",
            dependencies: ["CockpitWeb", "CockpitCore", "CockpitClient", "cockpit-web", "cockpitd", "cockpitctl", "CockpitTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CockpitDataUpdateTests",
            dependencies: ["CockpitDataUpdate", "CockpitDaemon", "CockpitIO", "CockpitCore", "CockpitClient", "CockpitTestSupport",
                           "cockpit-data-update"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CockpitRelayTests",
            dependencies: ["CockpitRelay", "CockpitWire", "CockpitIO", "CockpitCore", "cockpit-relay", "cockpitd", "cockpitctl", "CockpitTestSupport"],
            swiftSettings: strict
        ),
    ]
)

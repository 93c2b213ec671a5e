// swift-tools-version:6.0
// The libFuzzer harness for cockpitd (docs/fuzzing.md). Built only with the sanitizers:
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address      (run from Fuzz/, or use Scripts/fuzz.sh)
// libFuzzer supplies `main`, so the executable is parsed as a library and only exports LLVMFuzzerTestOneInput.
import PackageDescription

let package = Package(
    name: "cockpitd-fuzz",
    dependencies: [.package(name: "cockpitd", path: "..")],
    targets: [
        // SwiftPM renames an executable's `main` to cockpit_fuzz_main; this C shim defines it and runs libFuzzer's driver.
        .target(name: "CFuzzMain"),
        .executableTarget(
            name: "cockpit-fuzz",
            dependencies: ["CFuzzMain", .product(name: "CockpitFuzzTargets", package: "cockpitd")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)

import CockpitFuzzTargets
import CFuzzMain
import Glibc

// libFuzzer calls these two (it supplies `main`). The target is chosen by COCKPIT_FUZZ_TARGET (Scripts/fuzz.sh sets
// it): one binary and one sanitizer link for every surface.

nonisolated(unsafe) var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                           _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    let name = getenv("COCKPIT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: " ")
        print("cockpit-fuzz: set COCKPIT_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    if let query = getenv("COCKPIT_FUZZ_QUERY"), String(cString: query) == "max_len" {
        print(target.maximumInputBytes)   // Scripts/fuzz.sh passes it as -max_len
        exit(0)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selected else { return 0 }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    target.run(bytes)
    return 0
}

import Glibc

/// The parts of the start hint that must work where it is typed: the `cockpitd` to run (the one beside this
/// `cockpitctl` when that is not on the PATH, as in a build tree) and a flight that exists (the source tree's bundled
/// demo flight when the current directory is a checkout).
enum StartHint {
    static let demoFlight = "Tests/Fixtures/flights/opensoar__missing_lcu_lseeyou_lines.igc"

    static var flight: String { access(demoFlight, R_OK) == 0 ? demoFlight : "FLIGHT.igc" }

    static var cockpitd: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "cockpitd" }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let onPath = getenv("PATH").map { String(cString: $0).split(separator: ":").contains { $0 == directory } } ?? false
        guard !onPath, access(directory + "/cockpitd", X_OK) == 0 else { return "cockpitd" }
        return directory + "/cockpitd"
    }
}

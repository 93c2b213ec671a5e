import Glibc

/// The parts of the start hint that must work where it is typed: the programs to run (those beside this `cockpitctl`
/// when its directory is not on the PATH, as in a build tree) and a flight that exists (the source tree's bundled
/// demo flight when the current directory is a checkout).
enum StartHint {
    static let demoFlight = "Tests/Fixtures/flights/opensoar__missing_lcu_lseeyou_lines.igc"

    static var flight: String { access(demoFlight, R_OK) == 0 ? demoFlight : "FLIGHT.igc" }

    /// `name` as typed when this `cockpitctl`'s directory is on the PATH, else its full path in that directory.
    static func program(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let onPath = getenv("PATH").map { String(cString: $0).split(separator: ":").contains { $0 == directory } } ?? false
        guard !onPath, access(directory + "/" + name, X_OK) == 0 else { return name }
        return directory + "/" + name
    }
}

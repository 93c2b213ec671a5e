import Glibc
public import CockpitCore

/// The data files cockpitd ships (the airfield database, the EGM96 geoid grid), found where they are installed and,
/// on a workstation, in the source tree: a replay or a daemon started from a checkout uses the same files as one
/// installed from the Debian package, without options.
public enum ShippedFiles {
    /// Where the package installs the airfield database (docs/packaging.md), a refreshed copy first; then the source
    /// tree's, relative to the working directory and to the executable (`.build/<triple>/<configuration>/cockpitd`).
    public static let airfieldsSearchPath = ["/var/lib/cockpit/airfields.sqlite", "/usr/share/cockpit/airfields.sqlite",
                                             "Data/airfields.sqlite", "<source tree>/Data/airfields.sqlite"]
    /// The EGM96 15' grid: the package's copy, Debian proj-data's, then the source tree's.
    public static let geoidSearchPath = ["/usr/share/cockpit/egm96_15.gtx", "/usr/share/proj/egm96_15.gtx",
                                         "Tests/Fixtures/geoid/egm96_15.gtx", "<source tree>/Tests/Fixtures/geoid/egm96_15.gtx"]

    /// The first readable file of `searchPath` ("<source tree>" standing for the checkout the executable was built in).
    public static func first(_ searchPath: [String]) -> String? {
        for candidate in searchPath {
            let path: String
            if candidate.hasPrefix("<source tree>/") {
                guard let tree = sourceTree else { continue }
                path = tree + candidate.dropFirst("<source tree>".count)
            } else {
                path = candidate
            }
            if access(path, R_OK) == 0 { return path }
        }
        return nil
    }

    /// The checkout the running executable was built in (the directory holding its `.build`), when a Package.swift is there.
    static let sourceTree: String? = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 4 else { return nil }
        let tree = parts.dropLast(4).joined(separator: "/")
        return access(tree + "/Package.swift", R_OK) == 0 ? tree : nil
    }()
}

extension Settings {
    /// The data files this run uses, for the status (`daemon.files`), the replay summary and the start-up log: each
    /// path, or null for none.
    public var dataFilesInUse: JSONObject {
        ["airfields": .optional(self[AirfieldSettings.self].resolvedPath), "geoid": .optional(self[FlightSettings.self].geoidPath)]
    }
}

import CockpitCore
import CockpitIO
import CockpitProtocol
import Glibc

/// `disk`: how full the card is where the flight log lives — what an installer checks and cockpit-web's Box page shows.
/// Read-only, off the loop (statvfs and stat touch the file system, which a busy or failing card can make slow).
enum DiskRequest {
    static func handler() -> RequestHandler {
        RequestHandler(RequestName.disk, offLoop: { _, context in
            let log = context.output(FlightLogOutput.self)
            let path = log?.path, limit = log?.limitBytes
            return .success {
                .success(ControlAnswer(type: RequestName.disk, key: "disk", body: .object(json(flightLogPath: path, limitBytes: limit,
                                                                                             measure: measure))))
            }
        })
    }

    /// What the file system says: the file's bytes (with its write-ahead log), and the free and total bytes of the file
    /// system holding it; nil for what cannot be read.
    struct Measurement: Equatable {
        var fileBytes: Int64?
        var freeBytes: Int64?
        var totalBytes: Int64?
    }

    static func measure(_ path: String) -> Measurement {
        func size(_ file: String) -> Int64? {
            var info = stat()
            return stat(file, &info) == 0 ? Int64(info.st_size) : nil
        }
        var result = Measurement()
        if let main = size(path) { result.fileBytes = main + (size(path + "-wal") ?? 0) }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = statvfs()
        if statvfs(directory.isEmpty ? "/" : directory, &info) == 0 {
            // f_bavail: what an unprivileged writer (the daemon's user) may still use; f_frsize the unit of both counts.
            result.freeBytes = Int64(info.f_bavail) * Int64(info.f_frsize)
            result.totalBytes = Int64(info.f_blocks) * Int64(info.f_frsize)
        }
        return result
    }

    /// The answer: `flightLog` (`path`, `bytes`, `limitBytes`) and `fileSystem` (`freeBytes`, `totalBytes`,
    /// `usedPercent`) of the log's file system; both null without a flight log.
    static func json(flightLogPath: String?, limitBytes: Int64?, measure: (String) -> Measurement) -> JSONObject {
        guard let flightLogPath else { return ["flightLog": .null, "fileSystem": .null] }
        let measured = measure(flightLogPath)
        var fileSystem: JSONValue = .null
        if let free = measured.freeBytes, let total = measured.totalBytes, total > 0 {
            fileSystem = .object(["freeBytes": .integer(free), "totalBytes": .integer(total),
                                  "usedPercent": .number(Double(total - free) / Double(total) * 100, decimals: 1)])
        }
        return [
            "flightLog": .object(["path": .string(flightLogPath), "bytes": .optional(measured.fileBytes), "limitBytes": .optional(limitBytes)]),
            "fileSystem": fileSystem,
        ]
    }
}

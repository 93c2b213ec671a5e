public import CockpitCore
import CockpitIO
import Foundation
import Glibc

/// The updater's account of its last run, for the daemon's status (`data`, read by `DataStatus`): one small JSON file
/// per data set (`DataUpdateKeys.airfieldsStatusPath`, `terrainStatusPath`), written whole (`AtomicFile`). A failed
/// run keeps the last success and the data date from the file before it.
public enum UpdateStatus {
    /// The system's wall clock (the updater runs on the ground, with the time the box has).
    public static func wallClock() -> UTCInstant {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UTCInstant(secondsSinceEpoch: Double(now.tv_sec))
    }

    /// The timer's next run from systemd's `NextElapseUSecRealtime` as `systemctl show --timestamp=unix` prints it
    /// (`@1764386400`). While its service runs the timer is not yet re-armed and still names the run that started it:
    /// a time not after `now` is moved on by whole days (the timer is `OnCalendar=daily` with `FixedRandomDelay=yes`,
    /// the same delay every day). Nil when there is no such time (`n/a`, empty: no timer, no systemd).
    public static func nextElapse(systemctlOutput: String, now: UTCInstant) -> UTCInstant? {
        let text = systemctlOutput.filter { !$0.isWhitespace }
        guard text.hasPrefix("@"), let seconds = Double(text.dropFirst()), seconds > 0 else { return nil }
        var next = UTCInstant(secondsSinceEpoch: seconds)
        if next <= now { next = next.adding(seconds: (now.seconds(since: next) / 86_400).rounded(.down) * 86_400 + 86_400) }
        return next
    }

    /// Asks systemd for the timer's next run; nil without systemd or without the timer.
    static func timerNextElapse(now: UTCInstant) -> UTCInstant? {
        guard access("/run/systemd/system", F_OK) == 0, access("/usr/bin/systemctl", X_OK) == 0 else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemctl")
        process.arguments = ["show", "cockpit-data-update.timer", "-p", "NextElapseUSecRealtime", "--value", "--timestamp=unix"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return nextElapse(systemctlOutput: String(decoding: output, as: UTF8.self), now: now)
    }

    static func previous(_ path: String) -> JSONValue? {
        guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 20) else { return nil }
        return try? JSONParser.parse(bytes: bytes)
    }

    static func write(_ object: JSONObject, to path: String) -> String? {
        AtomicFile.write(Array((JSONWriter.string(.object(object)) + "\n").utf8), to: path, modeBits: 0o644)
    }

    /// The airfields' account: the database's data date and airports after a success.
    static func airfields(path: String, source: String, result: Result<AirfieldUpdate.Outcome, UpdateFailure>,
                          now: UTCInstant, next: UTCInstant?) -> String? {
        let before = previous(path)
        var object: JSONObject = ["source": .string(source), "lastAttempt": .string(now.iso8601)]
        switch result {
        case .success(let outcome):
            object["result"] = .string({ if case .installed = outcome { "installed" } else { "current" } }())
            object["reason"] = .null
            object["lastSuccess"] = .string(now.iso8601)
            switch outcome {
            case .current(let date): object["dataDate"] = .string(date)
            case .installed(let airports, let date):
                object["dataDate"] = .string(date)
                object["airports"] = .integer(Int64(airports))
            }
        case .failure(let failure):
            object["result"] = .string("failed")
            object["reason"] = .string(failure.description)
            object["lastSuccess"] = before?["lastSuccess"] ?? .null
            object["dataDate"] = before?["dataDate"] ?? .null
        }
        object["nextUpdate"] = .optional(next)
        return write(object, to: path)
    }

    /// The terrain's account: the region, its tiles and what became of them.
    static func terrain(path: String, source: String, region: TerrainRegion, regionTiles: Int?, report: TerrainUpdate.Report?,
                        problem: String?, dataDate: String?, now: UTCInstant, next: UTCInstant?) -> String? {
        let before = previous(path)
        let failed = problem != nil || !(report?.failed.isEmpty ?? true)
        var object: JSONObject = ["source": .string(source), "region": .string(region.text), "regionTiles": .optional(regionTiles),
                                  "lastAttempt": .string(now.iso8601)]
        object["result"] = .string(failed ? "failed" : (report?.fetched.isEmpty ?? true) ? "current" : "installed")
        var reasons = problem.map { [$0] } ?? []
        for (tile, why) in (report?.failed ?? [:]).sorted(by: { $0.key < $1.key }) { reasons.append("\(tile): \(why)") }
        object["reason"] = reasons.isEmpty ? .null : .string(reasons.prefix(5).joined(separator: "; "))
        object["fetched"] = .optional(report?.fetched.count)
        object["current"] = .optional(report?.current.count)
        object["notPublished"] = .array((report?.absent ?? []).sorted().map(JSONValue.string))
        object["lastSuccess"] = failed ? before?["lastSuccess"] ?? .null : .string(now.iso8601)
        object["dataDate"] = .optional(dataDate ?? before?["dataDate"]?.stringValue)
        object["nextUpdate"] = .optional(next)
        return write(object, to: path)
    }

    /// The newest Last-Modified day among the tiles' validators (the source's date of the data the folder holds).
    static func newestDay(_ state: FetchState, urls: [String]) -> String? {
        urls.compactMap { state[$0]?.lastModified.flatMap(HTTPDate.day) }.max()
    }
}

import CockpitClient
import CockpitCore
import CockpitEmbedded
import CockpitTestSupport
import Glibc
import Testing

/// `disk`: the flight log's size and its file system's free space, as coreutils' `df` and `stat` see them.
@Suite("disk request")
struct DiskRequestTests {
    @Test func theFlightLogAndItsCardAsDfAndStatSeeThem() throws {
        let directory = temporaryPath("-disk")
        mkdir(directory, 0o700)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let log = directory + "/flights.sqlite"
        // The live daemon of `cockpitd run --flight-log LOG --flight-log-limit-mib 64`, in this process.
        let daemon = try EmbeddedDaemon { options in
            try options.settings.give("flight-log", log)
            try options.settings.give("flight-log-limit-mib", "64")
        }
        defer { daemon.stop() }
        // The flight log opens its file on its own queue.
        #expect(waitFor(seconds: 15) { access(log, F_OK) == 0 })
        let answer = try daemon.request("disk")
        let disk = try #require(answer["disk"])
        #expect(disk["flightLog"]?["path"] == .string(log))
        #expect(disk["flightLog"]?["limitBytes"] == .integer(64 << 20))
        let stat = runProcess("/usr/bin/stat", ["-c", "%s", log])
        let bytes = try #require(Int64(stat.stdout.split(separator: "\n").first ?? ""))
        let reported = try #require(disk["flightLog"]?["bytes"]?.int64Value)
        #expect(reported >= bytes, "the log and its write-ahead log: \(reported), the log alone \(bytes)")
        let df = runProcess("/bin/df", ["-B1", "--output=avail,size", directory]).stdout.split(separator: "\n").last?
            .split(separator: " ").compactMap { Int64($0) } ?? []
        try #require(df.count == 2, "df: \(df)")
        let free = try #require(disk["fileSystem"]?["freeBytes"]?.int64Value), total = try #require(disk["fileSystem"]?["totalBytes"]?.int64Value)
        #expect(total == df[1])
        // Others write to this disk meanwhile: free space agrees within 64 MiB.
        #expect(abs(free - df[0]) < 64 << 20, "disk says \(free) free, df \(df[0])")
    }
}

import CockpitCore
import CockpitIO
import Glibc
import Testing
import CockpitTestSupport

/// A bundled IGC flight cut to `count` B records from `from`, moved by (Δlat, Δlon) and re-timed to start at `start`
/// (UTC, today), so that a relay — which checks report times against its own clock — accepts its reports.
struct MovedFlight {
    var lines: [String]
    var track: [(seconds: Double, latitude: Double, longitude: Double)]

    static func directory() -> String {
        #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/") + "/Fixtures/flights/"
    }

    init(file: String, from: Int, count: Int, deltaLatitude: Double, deltaLongitude: Double, start: Int) {
        let text = readFile(Self.directory() + file)
        // "\r\n" is one Character in Swift: split on either form.
        let all = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        let header = all.prefix { !$0.hasPrefix("B") }.filter { !$0.hasPrefix("HFDTE") }
        let records = all.filter { $0.hasPrefix("B") && $0.count >= 35 }
        let day = start / 86_400
        let civil = UTCInstant(secondsSinceEpoch: Double(day) * 86_400).civil
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func pad(_ v: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(v).count)) + String(v) }
        lines = ["HFDTE\(two(civil.day))\(two(civil.month))\(two(civil.year % 100))"] + header
        track = []
        for (index, record) in records[from..<(from + count)].enumerated() {
            let chars = Array(record)
            let s = { (a: Int, b: Int) in String(chars[a..<b]) }
            var lat = Double(Int(s(7, 9))!) + Double(Int(s(9, 14))!) / 60_000
            if chars[14] == "S" { lat = -lat }
            var lon = Double(Int(s(15, 18))!) + Double(Int(s(18, 23))!) / 60_000
            if chars[23] == "W" { lon = -lon }
            lat += deltaLatitude
            lon += deltaLongitude
            let seconds = start + index - day * 86_400
            let time = two(seconds / 3600) + two(seconds / 60 % 60) + two(seconds % 60)
            let latMinutes = Int((abs(lat) - Double(Int(abs(lat)))) * 60_000 + 0.5), lonMinutes = Int((abs(lon) - Double(Int(abs(lon)))) * 60_000 + 0.5)
            let b = "B" + time + pad(Int(abs(lat)), 2) + pad(latMinutes, 5) + (lat < 0 ? "S" : "N")
                + pad(Int(abs(lon)), 3) + pad(lonMinutes, 5) + (lon < 0 ? "W" : "E") + s(24, chars.count)
            lines.append(b)
            track.append((Double(start + index), Double(Int(abs(lat))) + Double(latMinutes) / 60_000,
                          Double(Int(abs(lon))) + Double(lonMinutes) / 60_000))
        }
    }

    func write(_ path: String) {
        let file = fopen(path, "w")
        fputs(lines.joined(separator: "\r\n") + "\r\n", file)
        fclose(file)
    }

    /// Linear interpolation between records (1 s apart).
    func position(at seconds: Double) -> (Double, Double) {
        guard let next = track.firstIndex(where: { $0.seconds >= seconds }), next > 0 else {
            return (track.last!.latitude, track.last!.longitude)
        }
        let a = track[next - 1], b = track[next], f = (seconds - a.seconds) / (b.seconds - a.seconds)
        return (a.latitude + (b.latitude - a.latitude) * f, a.longitude + (b.longitude - a.longitude) * f)
    }
}

@Suite("Two cockpitd replays through two relays on one database", .serialized)
struct ReplaysThroughRelaysTests {
    // A paced replay with --traffic-port must exit: ReplayRunner stops its UDP receiver before the event loop shuts
    // down (the other way round it never exits), so this runs with the suite.
    @Test("Each replay sends to a different relay; each lists the other at the right distance and bearing, via relay")
    func twoReplaysSeeEachOther() throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let base = "/tmp/cockpit-relay-e2e-\(getpid())"
        let keyFile = base + ".key"
        let file = fopen(keyFile, "w")
        fputs(testKeyHex + "\n", file)
        fclose(file)
        let relayPorts = [freeUDPPort(), freeUDPPort()], trafficPorts = [freeUDPPort(), freeUDPPort()]
        var pids: [pid_t] = []
        defer {
            for pid in pids { kill(pid, SIGTERM) }
            var status: Int32 = 0
            for pid in pids { waitpid(pid, &status, 0) }
            _ = run("/bin/sh", ["-c", "rm -f \(base)*"])
        }
        for (index, port) in relayPorts.enumerated() {
            let out = base + ".relay\(index)"
            pids.append(try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(port)", "--postgres", postgres.url,
                                                              "--relay-name", "relay\(index)", "--device-keys", keyFile,
                                                              "--status-interval", "0"], outputPath: out))
            #expect(waitFor(seconds: 30) { readFile(out).contains("listening") }, "relay \(index): \(readFile(out))")
        }
        // The lead's two-daemon flights: B moved so that it starts 3 nm east of A; both re-timed to start in 3 s.
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let start = Int(spec.tv_sec) + 3
        let a = MovedFlight(file: "igc-parser__2017-07-17-lev__FR_77hv14x1.igc", from: 3_600, count: 75, deltaLatitude: 0, deltaLongitude: 0, start: start)
        let bRaw = MovedFlight(file: "opensoar__aat_strepla.igc", from: 7_200, count: 75, deltaLatitude: 0, deltaLongitude: 0, start: start)
        let deltaLat = a.track[0].latitude - bRaw.track[0].latitude
        let deltaLon = a.track[0].longitude - bRaw.track[0].longitude + 3.0 / 60 / cos(a.track[0].latitude * Double.pi / 180)
        let b = MovedFlight(file: "opensoar__aat_strepla.igc", from: 7_200, count: 75, deltaLatitude: deltaLat, deltaLongitude: deltaLon, start: start)
        let flights = [a, b]
        for (index, flight) in flights.enumerated() {
            let igc = base + ".flight\(index).igc"
            flight.write(igc)
            pids.append(try startBackground(Binaries.cockpitd,
                                        ["replay", igc, "--speed", "1", "--socket", base + ".sock\(index)", "--profile", "glider",
                                         "--traffic-port", "\(trafficPorts[index])", "--traffic-to", "127.0.0.1:\(relayPorts[index])",
                                         "--traffic-key-file", keyFile], outputPath: base + ".replay\(index)"))
        }
        // Each replay's view of the other, once it arrives through the relays.
        var views: [JSONValue] = [.null, .null]
        for index in 0..<2 {
            _ = waitFor(seconds: 60) {
                let text = run(Binaries.cockpitctl, ["--socket", base + ".sock\(index)", "traffic"]).output
                return text.contains("via relay")
            }
            let status = run(Binaries.cockpitctl, ["--socket", base + ".sock\(index)", "--json", "status"]).output
            views[index] = (try? JSONParser.parse(status)) ?? .null
        }
        for index in 0..<2 {
            let view = views[index]
            let targets = view["traffic"]?["targets"]?.arrayValue ?? []
            #expect(targets.count == 1, "replay \(index): \(readFile(base + ".replay\(index)"))")
            guard let target = targets.first, let utcText = view["gps"]?["utc"]?.stringValue,
                  let utc = UTCInstant.parseISO8601(utcText) else { continue }
            #expect(target["viaRelay"]?.boolValue == true)
            let own = flights[index].position(at: utc.secondsSinceEpoch), other = flights[1 - index].position(at: utc.secondsSinceEpoch)
            let expected = testDistanceMeters(own.0, own.1, other.0, other.1) / 1852
            let distance = try #require(target["distanceNauticalMiles"]?.doubleValue)
            #expect(abs(distance - expected) < 0.1, "replay \(index) sees the other at \(distance) nm; the flights say \(expected)")
            let y = sin((other.1 - own.1) * Double.pi / 180) * cos(other.0 * Double.pi / 180)
            let x = cos(own.0 * Double.pi / 180) * sin(other.0 * Double.pi / 180)
                - sin(own.0 * Double.pi / 180) * cos(other.0 * Double.pi / 180) * cos((other.1 - own.1) * Double.pi / 180)
            let bearing = (atan2(y, x) * 180 / Double.pi + 360).truncatingRemainder(dividingBy: 360)
            let seen = try #require(target["bearingTrueDegrees"]?.doubleValue)
            let difference = abs((seen - bearing + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(difference < 3, "bearing \(seen)° vs \(bearing)°")
        }
    }
}

import Glibc
import Testing
import CockpitCore
import CockpitIO

@Suite("Flight log writer: pruning")
struct FlightLogWriterTests {
    /// Three 15-minute flights of 1 Hz samples (positions and altitudes from a real IGC) into a log limited to
    /// 160 KiB: the oldest flights go with their samples, the newest stays whole, the file stays sound and bounded.
    @Test func oldestFlightsArePrunedPastTheSizeLimit() throws {
        let path = "/tmp/cockpit-flightlog-prune-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let flight = try IGCParser.parse(try LineReader.readAll(path: Fixtures.path("flights/igc_lib__napret.igc")))
        let fixes = flight.records.compactMap { record -> GPSFix? in
            if case .gpsFix(let fix) = record.input, fix.hasValidPosition { return fix }
            return nil
        }
        let limit: Int64 = 160 << 10
        let writer = try FlightLogWriter(path: path, limitBytes: limit, synchronous: .normal)
        var clock = UTCInstant(year: 2024, month: 5, day: 1, hour: 8)
        for _ in 0..<3 {
            try writer.write(.takeoff(FlightLogPlace(utc: clock, latitudeDegrees: fixes[0].latitudeDegrees, longitudeDegrees: fixes[0].longitudeDegrees)))
            for fix in fixes.prefix(900) {
                clock = clock.adding(seconds: 1)
                try writer.write(.sample(FlightLogSample(
                    utc: clock, fixUTC: clock, latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: fix.longitudeDegrees,
                    gpsAltitudeHAEFeet: fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)), cabinAltitudeFeet: 3_000,
                    groundSpeedKnots: 20, phase: "airborne")))
            }
            try writer.write(.landing(FlightLogPlace(utc: clock)))
            clock = clock.adding(seconds: 3_600)
        }
        #expect(writer.counters.prunedFlights >= 1)
        let used = try writer.usedBytes()
        #expect(used <= limit + (64 << 10), "\(used) bytes used")
        let reader = try FlightLogReader(path: path)
        let flights = try reader.flights()
        #expect(flights.first?.id != 1, "the oldest flight is gone")
        let newest = try #require(flights.last)
        #expect(newest.id == 3)
        #expect(newest.end == .landed)
        #expect(try reader.samples(from: newest.takeoff.utc, to: newest.landing!.utc).count == 900)
        #expect(reader.integrityProblem() == nil)
    }
}

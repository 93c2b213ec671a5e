import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench efb`: one 1 Hz cycle with 20 traffic targets — the picture (relative geometry), GDL 90 (heartbeat,
/// ForeFlight ID, ownship, geometric altitude, 20 traffic reports, framed) and FLARM NMEA (RMC, GGA, PGRMZ, PFLAU, 20 PFLAA).
func efbBenchmark() {
    var engine = Engine()
    let utc = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)
    let t0 = MonotonicInstant(seconds: 100)
    let own = GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: 47.458056, longitudeDegrees: 8.548056, altitudeMSLMeters: 1_500,
                     altitudeHAEMeters: 1_548, groundSpeedMetersPerSecond: 50, trackTrueDegrees: 270, climbMetersPerSecond: 1,
                     horizontalErrorMeters: 4, verticalErrorMeters: 6)
    _ = engine.handle(.gps(.fix(own)), at: t0)
    _ = engine.handle(.baro(BaroSample(pressurePascals: 84_000, temperatureCelsius: 20)), at: t0)
    for index in 0..<20 {
        let angle = Double(index) * 18
        let report = TrafficPacket.Report(flags: [.airborne], identifier: UInt32(0x100 + index), sequence: 1, utc: utc,
                                          latitudeDegrees: 47.458056 + 0.02 * cos(angle * .pi / 180), longitudeDegrees: 8.548056 + 0.03 * sin(angle * .pi / 180),
                                          altitudeFeet: 4_000 + Double(index) * 100, groundSpeedKnots: 90, trackTrueDegrees: angle,
                                          verticalSpeedFeetPerMinute: 256)
        _ = engine.handle(.trafficReport(report), at: t0.adding(seconds: 0.2))
    }
    _ = engine.handle(.tick, at: t0.adding(seconds: 0.5))
    let snapshot = engine.snapshot
    let ownship = GDL90Ownship(icaoAddress: 0x4B1234, callsign: "HBABC", emitterCategory: 1)
    let cycles = 20_000
    var gdl90Bytes = 0, datagrams = 0, nmeaBytes = 0
    var best = Double.infinity
    for _ in 0..<5 {
        gdl90Bytes = 0; datagrams = 0; nmeaBytes = 0
        let start = MonotonicClock.now()
        for _ in 0..<cycles {
            let picture = EFBPicture(snapshot)
            let frames = GDL90Cycle.messages(picture, ownship: ownship)
            datagrams &+= frames.count
            for frame in frames { gdl90Bytes &+= frame.count }
            nmeaBytes &+= FLARMNMEA.cycle(picture, trafficTransmitting: true).utf8.count
        }
        best = min(best, MonotonicClock.now().seconds(since: start))
    }
    let perCycle = best / Double(cycles) * 1e6
    let gdl90PerSecond = gdl90Bytes / cycles, datagramsPerSecond = datagrams / cycles, nmeaPerSecond = nmeaBytes / cycles
    print("efb: one 1 Hz cycle with \(snapshot.traffic.targets.count) targets (picture + GDL 90 + FLARM NMEA): \(String(Int(perCycle))) µs (best of 5 × \(cycles)); GDL 90 \(datagramsPerSecond) datagrams = \(gdl90PerSecond) B/s payload (\(gdl90PerSecond + datagramsPerSecond * 28) B/s with UDP/IPv4 headers) per destination; FLARM NMEA \(nmeaPerSecond) B/s per client")
}

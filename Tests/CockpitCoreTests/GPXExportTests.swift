import Testing
@testable import CockpitCore
import CockpitTestSupport

/// GPX 1.1 (topografix.com/GPX/1/1): a `trkpt`'s `time` is "the time that the point was recorded", and a track
/// segment "should be broken into multiple segments" where "GPS reception was lost". The log samples at 1 Hz on the
/// core's tick; a fix is held (up to 3 s) between receiver reports, so samples repeat fixes.
@Suite("GPX export: one point per fix, at its time")
struct GPXExportTests {
    static let takeoff = UTCInstant(year: 2026, month: 6, day: 1, hour: 9)

    /// Fixes every `interval` s for `count` fixes from `start`, sampled at 1 Hz half a second after each whole
    /// second, each sample holding the latest fix (the logger's behaviour).
    static func samples(start: Double, count: Int, interval: Double) -> [FlightLogSample] {
        var result: [FlightLogSample] = []
        let end = start + Double(count - 1) * interval
        var second = start
        while second <= end + 0.5 {
            let fixIndex = ((second - start) / interval).rounded(.down)
            let fixTime = start + fixIndex * interval
            result.append(FlightLogSample(utc: takeoff.adding(seconds: second + 0.5), fixUTC: takeoff.adding(seconds: fixTime),
                                          latitudeDegrees: 46 + fixIndex * 1e-4, longitudeDegrees: 7, gpsAltitudeMSLFeet: 3_000))
            second += 1
        }
        return result
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func points(_ gpx: String) -> [(time: String, latitude: String)] {
        gpx.split(separator: "\n").filter { $0.hasPrefix("<trkpt") }.map { line in
            let time = line.split(separator: "<time>")[1].split(separator: "</time>")[0]
            let latitude = line.split(separator: "lat=\"")[1].split(separator: "\"")[0]
            return (String(time), String(latitude))
        }
    }

    @Test func oneSecondFixesWithAGapGiveTwoSegmentsAndTheFixTimes() {
        // 60 fixes at 1 Hz, then reception lost for 28 s, then 30 more fixes.
        let samples = Self.samples(start: 0, count: 60, interval: 1) + Self.samples(start: 88, count: 30, interval: 1)
        let flight = FlightLogFlight(id: 1, takeoff: FlightLogPlace(utc: Self.takeoff, latitudeDegrees: 46, longitudeDegrees: 7))
        let gpx = FlightExport.gpx(flight: flight, samples: samples, software: "test")
        let points = Self.points(gpx)
        #expect(points.count == 90, "one point per fix: \(points.count)")
        #expect(points.first?.time == "2026-06-01T09:00:00Z" && points[59].time == "2026-06-01T09:00:59Z", "\(points.prefix(2))")
        #expect(points[60].time == "2026-06-01T09:01:28Z")
        #expect(Set(points.map(\.time)).count == 90, "no time twice")
        #expect(gpx.split(separator: "<trkseg>", omittingEmptySubsequences: false).count - 1 == 2, "a new segment after the 28 s without reception")
    }

    /// An 8 s logger (an IGC file replayed): 10 fixes, not 73 samples; no new segment between regular fixes.
    @Test func anEightSecondLoggerGivesItsFixesOnly() {
        let samples = Self.samples(start: 0, count: 10, interval: 8)
        let flight = FlightLogFlight(id: 1, takeoff: FlightLogPlace(utc: Self.takeoff))
        let points = Self.points(FlightExport.gpx(flight: flight, samples: samples, software: "test"))
        #expect(points.map(\.time) == (0..<10).map { "2026-06-01T09:0\($0 * 8 / 60):\(Self.twoDigits($0 * 8 % 60))Z" }, "\(points.map(\.time))")
        #expect(points.map(\.latitude) == (0..<10).map { FixedText.format(46 + Double($0) * 1e-4, decimals: 7) })
    }
}

import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Slow flight aloft is not a landing roll. Without terrain tiles the height above ground is unknown, so an airborne
/// aircraft slower than its profile's landing speed must not enter the landing roll wherever it is: entering it on
/// speed alone, the olsztyn glider thermalling into wind at 4,000 ft spends 594 s of its flight "rolling out", 1 h with
/// the powered profile, and the status says so. A roll is on the ground, at one altitude: the state enters it only while
/// the vertical speed is under 300 ft/min, and leaves it when the altitude moves out of the still band while faster
/// than taxiing. The climb and the height here are read from the IGC text (`IGCLog`, pressure altitude), not from the
/// parser. On speed alone the four cases below begin 10, 11, 1 and 2 landing rolls at ≥ 400 ft/min (70, 449, 71 and 7
/// records over 1,000 ft above the takeoff in a roll); with the vertical-speed condition, none (28, 141, 0 and 4).
@Suite("Flight state: slow flight aloft")
struct SlowFlightAloftTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String, profile: FlightProfile.Kind, takeoff: String
        var description: String { "\(file) \(profile)" }
    }

    static let cases = [
        Case(file: "igc_lib__olsztyn.igc", profile: .glider, takeoff: "10:17:01"),
        Case(file: "igc_lib__olsztyn.igc", profile: .powered, takeoff: "10:17:01"),
        Case(file: "igc-parser__654G6NG1.igc", profile: .glider, takeoff: "08:12:42"),
        Case(file: "igc-parser__20211015.igc", profile: .paraglider, takeoff: "08:51:24"),
    ]

    @Test(arguments: cases)
    func noLandingRollWhileClimbingOrSinkingHighAboveTheTakeoff(_ flight: Case) throws {
        let log = try IGCLog(fixture: flight.file)
        let path = temporaryPath(".sqlite")
        defer { for file in [path, path + "-wal", path + "-shm"] { unlink(file) } }
        _ = try replayIntoLog(Fixtures.path("flights/" + flight.file), profile: flight.profile, log: path)
        // The phase the real replay logged right after each fix: the first 1 Hz sample of the flight log that carries
        // the fix (`fix_utc`, UTC seconds of the day).
        var phases: [Int: String] = [:]
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let rows = try database.prepare("SELECT fix_utc % 86400, phase FROM samples ORDER BY utc")
        while try rows.step() {
            if let second = rows.int64(0), let phase = rows.text(1), phases[Int(second)] == nil { phases[Int(second)] = phase }
        }

        let takeoffMeters = log.records[log.index(at: IGCLog.seconds(flight.takeoff))].pressureMeters
        var aloft = 0, aloftInRoll = 0, rollsBegunClimbing = 0
        for index in log.records.indices.dropFirst().dropLast() {
            let before = log.records[index - 1], record = log.records[index], after = log.records[index + 1]
            guard after.seconds > before.seconds, let phase = phases[record.seconds] else { continue }
            guard UnitConversions.feet(fromMeters: Double(record.pressureMeters - takeoffMeters)) > 1_000 else { continue }
            aloft += 1
            guard phase == "landing-roll" else { continue }
            aloftInRoll += 1
            let climbFeetPerMinute = UnitConversions.feet(fromMeters: Double(after.pressureMeters - before.pressureMeters))
                / Double(after.seconds - before.seconds) * 60
            let rollBegan = phases[before.seconds].map { $0 != "landing-roll" } ?? false
            if rollBegan, abs(climbFeetPerMinute) >= 400 { rollsBegunClimbing += 1 }
        }
        #expect(aloft > 300)
        #expect(rollsBegunClimbing == 0, "\(flight): \(rollsBegunClimbing) landing rolls begun climbing or sinking ≥ 400 ft/min")
        print("\(flight): \(aloftInRoll) of \(aloft) records more than 1,000 ft above the takeoff in a landing roll")
    }
}

import Testing
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// The runner's one lookup seam: the core's questions reach the service registered for their kind, found by type, and
/// a question with no service is still answered, with why. Flown with a glider's real flight (Olsztyn, IGC), the geoid
/// giving MSL so that reach is asked for while aloft.
@Suite("The runner's lookup seam")
struct LookupServiceTests {
    /// Answers every airfield question with no fields and a database date of its own, and keeps each question.
    final class RecordingAirfields: LookupService {
        var asked: [AirfieldLookup] = []
        func answer(_ lookup: AirfieldLookup) -> AirfieldsUpdate {
            asked.append(lookup)
            return AirfieldsUpdate(lookup: lookup, nearest: [], best: nil, databaseAvailable: true, error: nil, databaseDate: "2024-05-04")
        }
    }

    static let file = "flights/igc_lib__olsztyn.igc"

    /// The flight replayed through a runner built by hand; the status at each minute while airborne, and at the end.
    static func fly(registering register: (CoreRunner) -> Void) throws -> (aloft: [JSONObject], final: JSONObject) {
        let source = try ReplaySources.open(path: Fixtures.path(file))
        var configuration = source.coreConfiguration
        configuration.flightProfile = .profile(.glider)
        let runner = CoreRunner(configuration: configuration, decoder: source.makeDecoder(), logger: quietLogger)
        runner.enrichers.append(TerrainService(terrainDirectory: nil, geoidPath: PanelWidthTests.geoid))
        runner.publishesSnapshots = false
        register(runner)
        var aloft: [JSONObject] = []
        var next: MonotonicInstant?
        while let timed = try source.next() {
            let due = next ?? timed.time.adding(seconds: 60)
            next = due
            if timed.time > due {
                runner.advanceClock(to: due)
                if runner.snapshot.flight.isAirborne { aloft.append(runner.snapshot.json) }
                next = due.adding(seconds: 60)
            }
            runner.ingest(timed)
        }
        runner.finish(at: source.endTime)
        return (aloft, runner.snapshot.json)
    }

    /// Every B record's position, read from the file's text here (DDMMmmm N, DDDMMmmm E: degrees and thousandths of a
    /// minute, IGC specification A4.1).
    static func recordedPositions() throws -> [(latitudeDegrees: Double, longitudeDegrees: Double)] {
        let text = String(decoding: try FixtureFile.bytes(Fixtures.path(file)), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("B") }.compactMap { line in
            let b = Array(line.utf8)
            func number(_ range: Range<Int>) -> Double? { Double(String(decoding: b[range], as: UTF8.self)) }
            guard b.count >= 24, let latDegrees = number(7..<9), let latMinutes = number(9..<14),
                  let lonDegrees = number(15..<18), let lonMinutes = number(18..<23) else { return nil }
            let latitude = (latDegrees + latMinutes / 60_000) * (b[14] == UInt8(ascii: "S") ? -1 : 1)
            let longitude = (lonDegrees + lonMinutes / 60_000) * (b[23] == UInt8(ascii: "W") ? -1 : 1)
            return (latitude, longitude)
        }
    }

    @Test("A question with no service is answered with why: no airfield database, no reach")
    func noService() throws {
        let flown = try Self.fly(registering: { _ in })
        #expect(flown.final["airfields"]?["reason"]?.stringValue == "no airfield database configured (--airfields FILE)")
        #expect(flown.aloft.count > 200)
        // Aloft, reach is asked for every 5 s; with no service its answer says reach is not set up.
        let glideReasons = Set(flown.aloft.compactMap { $0["glide"]?["reason"]?.stringValue })
        #expect(glideReasons == ["reach is not set up in this run"])
    }

    @Test("A registered service is found by its type and answers every question of its kind, at the recorded positions")
    func registeredService() throws {
        let airfields = RecordingAirfields()
        let flown = try Self.fly(registering: { runner in
            runner.register(airfields)
            #expect(runner.lookupServices.service(RecordingAirfields.self) === airfields)
            // Kept under the type that was registered: another service of the same kind of question is not this one.
            #expect(runner.lookupServices.service(AirfieldService.self) == nil)
            #expect(runner.lookupServices.service(GlideService.self) == nil)
        })
        #expect(flown.final["airfields"]?["available"]?.boolValue == true)
        #expect(flown.final["airfields"]?["databaseDate"]?.stringValue == "2024-05-04")
        // Each question from a fix of the recording (2,469 B records over 4 h 56 min).
        let positions = try Self.recordedPositions()
        #expect(positions.count == 2_469)
        #expect(airfields.asked.count > 100)
        // Positions to 1e-7° (1 cm): the file's thousandths of a minute are 1.7e-5°.
        func key(_ latitude: Double, _ longitude: Double) -> [Int] { [Int((latitude * 1e7).rounded()), Int((longitude * 1e7).rounded())] }
        let recorded = Set(positions.map { key($0.latitudeDegrees, $0.longitudeDegrees) })
        let notRecorded = airfields.asked.filter { !recorded.contains(key($0.latitudeDegrees, $0.longitudeDegrees)) }
        #expect(notRecorded.isEmpty)
        // Reach has no service here: it is still answered, and says so.
        #expect(Set(flown.aloft.compactMap { $0["glide"]?["reason"]?.stringValue }) == ["reach is not set up in this run"])
    }
}

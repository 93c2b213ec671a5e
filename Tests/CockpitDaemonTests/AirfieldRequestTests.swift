import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO

@Suite("Airfield requests over the control socket", .serialized)
final class AirfieldRequestTests {
    let socketPath = temporaryPath(".sock")
    let daemon: LiveDaemon

    init() throws {
        var options = LiveOptions(socketPath: socketPath, gpsd: nil)
        options.settings[AirfieldSettings.self].path = Fixtures.directory + "/../../Data/airfields.sqlite"
        daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
    }

    deinit { daemon.stop() }

    @Test func nearestFromAGivenPointWithoutAFix() throws {
        let result = runProcess(Binaries.cockpitctl, ["nearest", "--at=-16.69,-179.88", "-n", "3", "--json", "--socket", socketPath])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try JSONParser.parse(result.stdout.trimmingNewline())
        let results = try #require(answer["results"]?.arrayValue)
        #expect(results.count == 3)
        #expect(results.first?["ident"] == .string("NFNM"))
        // Each result carries its position and the declination used; magnetic = true − declination.
        let first = try #require(results.first)
        let declination = try #require(first["declinationDegrees"]?.doubleValue)
        let trueBearing = try #require(first["bearingTrueDegrees"]?.doubleValue)
        let magnetic = try #require(first["bearingMagneticDegrees"]?.doubleValue)
        let difference = (trueBearing - declination - magnetic + 720).truncatingRemainder(dividingBy: 360)
        #expect(difference < 1 || difference > 359)
        #expect(first["latitudeDegrees"]?.doubleValue != nil && first["longitudeDegrees"]?.doubleValue != nil)
        // Human form.
        let human = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "--min-runway", "8000", "--hard", "--socket", socketPath])
        #expect(human.stdout.contains("LSZH"))
    }

    @Test func nearestWithoutAPositionSaysSo() {
        let result = runProcess(Binaries.cockpitctl, ["nearest", "--socket", socketPath])
        #expect(result.status == 4)
        #expect(result.stderr.contains("no GPS position"))
    }

    @Test func airfieldWithMetar() throws {
        let result = runProcess(Binaries.cockpitctl, ["airfield", "LSZH", "--metar", "METAR LSZH 221220Z 23025KT 9999 FEW040 12/05 Q1008",
                                                      "--json", "--socket", socketPath])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try JSONParser.parse(result.stdout.trimmingNewline())
        #expect(answer["name"] == .string("Zürich Airport"))
        let wind = try #require(answer["wind"])
        #expect(wind["recommendedRunway"] == .string("28"))
        let r28 = try #require(wind["runways"]?.arrayValue?.first { $0["ident"] == .string("28") })
        #expect(r28["headwindKnots"]?.doubleValue == 17.4)
        #expect(r28["crosswindKnots"]?.doubleValue == -18)
        let missing = runProcess(Binaries.cockpitctl, ["airfield", "XXXX99", "--socket", socketPath])
        #expect(missing.status == 4)
        #expect(missing.stderr.contains("no airfield XXXX99"))
    }

    @Test func statusShowsNearestAndBestOnceThereIsAFix() throws {
        daemon.submit(.gpsdLine(#"{"class":"TPV","mode":3,"time":"2026-06-01T10:00:00.000Z","lat":47.30,"lon":8.70,"altMSL":900.0,"altHAE":948.0,"speed":51.4,"track":300.0}"#))
        var airfields: JSONValue?
        #expect(waitFor(seconds: 8) {
            airfields = (try? ControlClient(path: self.socketPath).request("status"))?["status"]?["airfields"]
            return airfields?["available"] == .bool(true)
        })
        let nearest = try #require(airfields?["nearest"]?.arrayValue)
        #expect(nearest.count == 5)
        #expect(airfields?["best"]?["longestRunwayFeet"]?.doubleValue.map { $0 >= 2_000 } == true)
        // 100 kt ground speed: ETE = distance / 100 h.
        let first = try #require(nearest.first)
        let ete = try #require(first["estimatedTimeEnRouteSeconds"]?.doubleValue)
        let distance = try #require(first["distanceNauticalMiles"]?.doubleValue)
        #expect(abs(ete - distance / (51.4 * 3600 / 1852) * 3600) < 2)
    }
}

import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

@Suite("Airfield requests over the control socket", .serialized)
final class AirfieldRequestTests {
    let socketPath = temporaryPath(".sock")
    let daemon: LiveDaemon

    init() throws {
        daemon = try startDaemonWithShippedAirfields(socketPath: socketPath)
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
        // The filter line says what was asked for, not "usable by the aircraft" whatever the options.
        #expect(human.stdout.contains("showing: land airports (no heliports, seaplane bases, firefighting bases or closed fields), hard runway ≥ 8000 ft, within 100 nm, nearest 10"),
                "\(human.stdout)")
        let all = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "--all", "--radius", "2.5", "--socket", socketPath])
        #expect(all.stdout.contains("showing: every kind of airfield, within 2.5 nm, nearest 10\n"), "\(all.stdout)")
    }

    /// Around Zürich twelve airfields within 21 nm: every row's distance has its one decimal (12.9, and 13.0 rather
    /// than 13) and ends under the end of "DIST nm", and the elevation ends under "ELEV ft" whatever the width of
    /// the time en route before it.
    @Test func nearestTableColumnsLineUp() throws {
        let result = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "-n", "12", "--socket", socketPath])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { Array($0) }
        let header = try #require(lines.first { String($0).hasPrefix("IDENT") })
        func end(of heading: String) -> Int? {
            String(header).firstRange(of: heading).map { String(header)[..<$0.upperBound].count }
        }
        let distanceEnd = try #require(end(of: "DIST nm")), elevationEnd = try #require(end(of: "ELEV ft"))
        let rows = lines.filter { $0.count > elevationEnd && $0.first != " " && !String($0).hasPrefix("IDENT") && !String($0).hasPrefix("from") && !String($0).hasPrefix("showing") }
        #expect(rows.count == 12)
        for row in rows {
            let distance = String(row[(distanceEnd - 7)..<distanceEnd]).split(separator: " ").last.map(String.init) ?? ""
            let parts = distance.split(separator: ".")
            #expect(parts.count == 2 && parts[1].count == 1 && Double(distance) != nil, "distance '\(distance)' in \(String(row))")
            #expect(row[distanceEnd] == " " && row[elevationEnd] == " ", "\(String(row))")
            let elevation = String(row[(elevationEnd - 8)..<elevationEnd]).split(separator: " ").last.map(String.init) ?? ""
            #expect(Int(elevation) != nil || elevation == "?", "elevation '\(elevation)' in \(String(row))")
        }
        // With a ground speed the time en route is to the minute, as on the panel (187 s is 3 min, 651 s 11 min, 3,800 s
        // 1 h 03 min), in up to 10 characters; the columns after it stay put, and a
        // whole distance keeps its decimal. (The answer as the daemon writes it: JSON numbers drop a trailing .0.)
        let answer = try JSONParser.parse("""
            {"from":{"latitudeDegrees":47.46,"longitudeDegrees":8.55,"source":"gps"},"filter":"every kind of airfield","results":[
             {"ident":"AAAA","name":"Three Minutes","distanceNauticalMiles":3.4,"bearingMagneticDegrees":5,"bearingTrueDegrees":7,"estimatedTimeEnRouteSeconds":187,"elevationFeet":1417},
             {"ident":"BBBB","name":"Eleven Minutes","distanceNauticalMiles":13,"bearingMagneticDegrees":95,"bearingTrueDegrees":97,"estimatedTimeEnRouteSeconds":651,"elevationFeet":95},
             {"ident":"CCCC","name":"An Hour Out","distanceNauticalMiles":120.25,"bearingMagneticDegrees":195,"bearingTrueDegrees":197,"estimatedTimeEnRouteSeconds":3800,"elevationFeet":12001}]}
            """)
        let table = AirfieldText.nearest(answer).split(separator: "\n").map(String.init)
        let rendered = try #require(table.firstIndex { $0.hasPrefix("IDENT") })
        #expect(table[rendered + 1].contains(" 3.4  ") && table[rendered + 2].contains(" 13.0  ") && table[rendered + 3].contains(" 120.3  "), "\(table)")
        #expect(table[rendered + 1].contains(" 3 min ") && table[rendered + 2].contains(" 11 min ") && table[rendered + 3].contains(" 1 h 03 min "), "\(table)")
        for row in table[(rendered + 1)...] {
            let characters = Array(row)
            #expect(characters.count > elevationEnd && characters[elevationEnd] == " " && characters[elevationEnd - 1].isNumber, "\(row)")
            #expect(characters[distanceEnd] == " " && characters[distanceEnd - 1].isNumber, "\(row)")
        }
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

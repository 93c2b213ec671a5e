import Glibc
import Testing
import CockpitCore
import CockpitTestSupport

/// `Scripts/modes-frames.py`, the synthetic Mode S traffic of the radio benchmark, checked against Debian's real
/// dump1090-mutability as the independent decoder: every frame it writes passes dump1090's parity check, and dump1090's
/// own decode (`aircraft.json`) shows every synthetic aircraft where the script's truth file says it is.
@Suite("Synthetic Mode S frames decoded by dump1090", .serialized)
struct ModeSFramesTests {
    static let script: String = {
        let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        return root + "/Scripts/modes-frames.py"
    }()
    static let python = "/usr/bin/python3"

    @Test func dump1090DecodesEveryAircraftAtItsTruePositionAltitudeAndVelocity() throws {
        let aircraftCount = 20
        let truthPath = temporaryPath("-truth.json")
        defer { unlink(truthPath) }
        // 20 aircraft within 60 nm of 52° N 5° E, 2 positions a second for 6 s: 12 position frames each, even and odd.
        let generated = runProcess(Self.python, [Self.script, "--aircraft", String(aircraftCount), "--rate-hz", "2", "--duration-s", "6",
                                                 "--centre", "52.0,5.0", "--radius-nm", "60", "--seed", "7", "--truth", truthPath])
        #expect(generated.status == 0, "\(generated.stderr)")
        let frameLines = generated.stdout.split(separator: "\n")
        let truth = try JSONParser.parse(readFile(truthPath)).arrayValue ?? []
        #expect(truth.count == aircraftCount)

        let dump1090 = RealDump1090()
        #expect(dump1090.start(), "dump1090-mutability does not start (Scripts/setup.sh installs it)")
        defer { dump1090.stop() }
        #expect(dump1090.feedRaw(Array(generated.stdout.utf8)))
        // It writes aircraft.json once a second: wait until it has counted every frame as a message.
        var reference: JSONValue?
        _ = waitFor(seconds: 10) {
            reference = dump1090.aircraftJSON()
            return reference?["messages"]?.int64Value == Int64(frameLines.count)
        }
        // Every frame passed dump1090's parity check and format decode: none is lost or rejected.
        #expect(reference?["messages"]?.int64Value == Int64(frameLines.count))
        let decoded = reference?["aircraft"]?.arrayValue ?? []
        #expect(decoded.count == aircraftCount)

        var worstOffsetNauticalMiles = 0.0, worstAltitudeFeet = 0.0
        for expected in truth {
            let hex = expected["address"]?.stringValue ?? "?"
            let found = decoded.first { $0["hex"]?.stringValue?.uppercased() == hex }
            #expect(found != nil, "dump1090 did not decode \(hex)")
            guard let found else { continue }
            guard let latitude = found["lat"]?.doubleValue, let longitude = found["lon"]?.doubleValue,
                  let trueLatitude = expected["latitudeDegrees"]?.doubleValue, let trueLongitude = expected["longitudeDegrees"]?.doubleValue
            else { Issue.record("dump1090 has no position for \(hex) (no even/odd CPR pair decoded)"); continue }
            let offsetNauticalMiles = haversineNauticalMiles(latitude, longitude, trueLatitude, trueLongitude)
            #expect(offsetNauticalMiles <= 0.01, "\(hex): dump1090's position is \(offsetNauticalMiles) nm from the truth")
            let altitudeFeet = found["altitude"]?.doubleValue ?? .nan
            let trueAltitudeFeet = expected["altitudeFeet"]?.doubleValue ?? .infinity
            #expect(abs(altitudeFeet - trueAltitudeFeet) <= 25, "\(hex): dump1090 \(altitudeFeet) ft, truth \(trueAltitudeFeet) ft")
            worstOffsetNauticalMiles = max(worstOffsetNauticalMiles, offsetNauticalMiles)
            worstAltitudeFeet = max(worstAltitudeFeet, abs(altitudeFeet - trueAltitudeFeet))
            let trimmedCallsign = String((found["flight"]?.stringValue ?? "").reversed().drop { $0 == " " }.reversed())
            #expect(trimmedCallsign == expected["callsign"]?.stringValue)
            // The velocity frame carries whole knots east and north and the vertical rate in 64 ft/min steps (the
            // script's rates are multiples of 64); dump1090 gives speed and track as whole numbers.
            let speedKnots = found["speed"]?.doubleValue ?? .nan, trueSpeedKnots = expected["groundSpeedKnots"]?.doubleValue ?? .infinity
            #expect(abs(speedKnots - trueSpeedKnots) <= 2, "\(hex): \(speedKnots) kt, truth \(trueSpeedKnots) kt")
            let trackDegrees = found["track"]?.doubleValue ?? .nan, trueTrackDegrees = expected["trackTrueDegrees"]?.doubleValue ?? .infinity
            let trackErrorDegrees = abs((trackDegrees - trueTrackDegrees + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(trackErrorDegrees <= 2, "\(hex): track \(trackDegrees)°, truth \(trueTrackDegrees)°")
            #expect(found["vert_rate"]?.doubleValue == expected["verticalRateFeetPerMinute"]?.doubleValue)
        }
        print("Mode S frames: \(frameLines.count) frames, dump1090 counted \(reference?["messages"] ?? .null) messages and \(decoded.count) aircraft; worst position \(worstOffsetNauticalMiles) nm, worst altitude \(worstAltitudeFeet) ft from the truth")
    }
}

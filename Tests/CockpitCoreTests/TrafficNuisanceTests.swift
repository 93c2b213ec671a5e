import Glibc
import Testing
@testable import CockpitCore
import CockpitTestSupport

/// Nuisance measured: two real glider flights from and back to Leverkusen (EDKL; Tests/Fixtures/flights, igc-parser's
/// 2017-07-15 and 2017-07-17 logs), replayed second by second with traffic placed where it really is at an airfield:
/// three aircraft parked beside the take-off place (their OGN trackers on, no ground flag, as parked gliders send),
/// one taxiing (ADS-B with the ground bit) and one flying the circuit at 800 ft above the field, all flight long.
/// Counted: callouts spoken on the ground (must be none), in the circuit and elsewhere — and, for the same scenes,
/// what distance-only alerts (within 2 nm and 500 ft, said on entering and every 20 s) would have said.
@Suite("Traffic callouts: nuisance at the airfield")
struct TrafficNuisanceTests {
    struct Point { var second: Double; var latitude: Double; var longitude: Double; var altitudeMeters: Double }

    /// IGC B records with a valid fix and a GNSS altitude (IGC spec: BHHMMSSDDMMmmmNDDDMMmmmEVPPPPPGGGGG).
    static func points(_ name: String) throws -> [Point] {
        let text = try FixtureFile.read(Fixtures.path("flights/" + name))
        var out: [Point] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("B") && line.count >= 35 {
            let c = Array(line)
            func number(_ from: Int, _ count: Int) -> Double? { Double(String(c[from..<(from + count)])) }
            guard c[24] == "A", let hh = number(1, 2), let mm = number(3, 2), let ss = number(5, 2),
                  let latD = number(7, 2), let latM = number(9, 5), let lonD = number(15, 3), let lonM = number(18, 5),
                  let gnss = number(30, 5), gnss != 0 else { continue }
            let latitude = (latD + latM / 60_000) * (c[14] == "S" ? -1 : 1)
            let longitude = (lonD + lonM / 60_000) * (c[23] == "W" ? -1 : 1)
            out.append(Point(second: hh * 3_600 + mm * 60 + ss, latitude: latitude, longitude: longitude, altitudeMeters: gnss))
        }
        return out
    }

    static func offset(_ latitude: Double, _ longitude: Double, north: Double, east: Double) -> (Double, Double) {
        (latitude + north / 111_195, longitude + east / (111_195 * cos(latitude * .pi / 180)))
    }

    static func observation(_ address: UInt32, _ source: RadioSourceKind, at position: (Double, Double), feet: Double, knots: Double,
                            track: Double, onGround: Bool? = nil) -> Event {
        var o = RadioObservation(source: source, address: RadioAddress(type: source == .ogn ? .ogn : .icao, value: address))
        (o.latitudeDegrees, o.longitudeDegrees, o.gnssAltitudeMSLFeet) = (position.0, position.1, feet)
        (o.groundSpeedKnots, o.trackTrueDegrees, o.onGround) = (knots, track, onGround)
        return .radio(.observation(o))
    }

    /// The circuit: a 2,400 m × 1,000 m rectangle north of the field, flown clockwise at 80 kt: (north, east, track).
    static func circuit(_ second: Double) -> (north: Double, east: Double, track: Double) {
        let speed = UnitConversions.metersPerSecond(fromKnots: 80)
        var d = (second * speed).truncatingRemainder(dividingBy: 6_800)
        if d < 2_400 { return (0, -1_200 + d, 90) }
        d -= 2_400
        if d < 1_000 { return (d, 1_200, 0) }
        d -= 1_000
        if d < 2_400 { return (1_000, 1_200 - d, 270) }
        d -= 2_400
        return (1_000 - d, -1_200, 180)
    }

    struct Counts { var ground = 0, circuit = 0, elsewhere = 0, distanceOnlyCircuit = 0, distanceOnlyElsewhere = 0, distanceOnlyGround = 0 }

    static func fly(_ name: String) throws -> Counts {
        let points = try Self.points(name)
        let first = try #require(points.first), last = try #require(points.last)
        let field = (first.latitude, first.longitude), fieldFeet = UnitConversions.feet(fromMeters: first.altitudeMeters)
        let airfield = Airfield(id: 1, ident: "EDKL", name: "Leverkusen", type: .smallAirport, latitudeDegrees: first.latitude,
                                longitudeDegrees: first.longitude, elevationFeet: fieldFeet, country: "DE", municipality: "Leverkusen",
                                longestRunwayFeet: 2_000, longestRunwaySurface: .soft, longestHardRunwayFeet: nil, frequencies: [])
        #expect(GreatCircle.distanceMeters(latitude1: first.latitude, longitude1: first.longitude, latitude2: last.latitude,
                                           longitude2: last.longitude) < 1_000, "back where it took off")
        var engine = Engine()
        var counts = Counts()
        var distanceOnly: [UInt32: Double] = [:]   // last time said, per target
        let parked: [(UInt32, Double, Double)] = [(0xA1, 0, 60), (0xA2, 40, 90), (0xA3, 120, -70)]
        for (index, point) in points.enumerated() {
            let at = MonotonicInstant(seconds: point.second)
            let previous = index > 0 ? points[index - 1] : point
            let dt = max(1, point.second - previous.second)
            let north = (point.latitude - previous.latitude) * 111_195
            let east = (point.longitude - previous.longitude) * 111_195 * cos(point.latitude * .pi / 180)
            var fix = GPSFix(mode: .threeDimensional)
            fix.utc = UTCInstant(year: 2017, month: 7, day: 15).adding(seconds: point.second)
            (fix.latitudeDegrees, fix.longitudeDegrees, fix.altitudeMSLMeters) = (point.latitude, point.longitude, point.altitudeMeters)
            fix.groundSpeedMetersPerSecond = (north * north + east * east).squareRoot() / dt
            fix.trackTrueDegrees = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
            fix.climbMetersPerSecond = (point.altitudeMeters - previous.altitudeMeters) / dt
            fix.horizontalErrorMeters = 5
            var effects = engine.handle(.gps(.fix(fix)), at: at)
            for (address, n, e) in parked {
                effects += engine.handle(Self.observation(address, .ogn, at: Self.offset(field.0, field.1, north: n, east: e), feet: fieldFeet,
                                                          knots: 0, track: 0), at: at)
            }
            let taxi = (point.second.truncatingRemainder(dividingBy: 240)) < 120
            let taxiEast = -300 + (point.second.truncatingRemainder(dividingBy: 120)) * 4 * (taxi ? 1 : -1) + (taxi ? 0 : 480)
            effects += engine.handle(Self.observation(0xB1, .adsbSBS, at: Self.offset(field.0, field.1, north: -80, east: taxiEast), feet: fieldFeet,
                                                      knots: 8, track: taxi ? 90 : 270, onGround: true), at: at)
            let lap = Self.circuit(point.second)
            effects += engine.handle(Self.observation(0xC1, .adsbSBS, at: Self.offset(field.0, field.1, north: lap.north, east: lap.east),
                                                      feet: fieldFeet + 800, knots: 80, track: lap.track, onGround: false), at: at)
            effects += engine.handle(.tick, at: at.adding(seconds: 0.5))
            for case .lookupAirfields(let lookup) in effects {
                let distance = GreatCircle.distanceMeters(latitude1: point.latitude, longitude1: point.longitude, latitude2: field.0, longitude2: field.1)
                let nearest = NearestAirfield(airfield: airfield, distanceNauticalMiles: distance / 1_852, bearingTrueDegrees: 0,
                                              bearingMagneticDegrees: nil, declinationDegrees: nil, estimatedTimeEnRouteSeconds: nil)
                _ = engine.handle(.airfields(AirfieldsUpdate(lookup: lookup, nearest: [nearest], best: nearest, databaseAvailable: true, error: nil)),
                                  at: at.adding(seconds: 0.5))
            }
            let spoken = effects.filter { if case .announce(let a) = $0 { return a.id.hasPrefix("traffic.") && a.id != "traffic.muted" }; return false }.count
            let airborne = engine.flight.isAirborne, circuit = engine.callouts.inCircuit
            if !airborne { counts.ground += spoken } else if circuit { counts.circuit += spoken } else { counts.elsewhere += spoken }
            // Distance only: every target within 2 nm and 500 ft (GNSS MSL both), said on entering and every 20 s.
            for target in TrafficPicture(engine.snapshot).targets {
                guard let relative = target.relative, relative.distanceNauticalMiles <= 2,
                      abs(relative.relativeAltitudeFeet ?? 0) <= 500 else { distanceOnly[target.identifier] = nil; continue }
                if let said = distanceOnly[target.identifier], point.second - said < 20 { continue }
                distanceOnly[target.identifier] = point.second
                if !airborne { counts.distanceOnlyGround += 1 } else if circuit { counts.distanceOnlyCircuit += 1 } else { counts.distanceOnlyElsewhere += 1 }
            }
        }
        // The logs stop at the touchdown: the landing roll is not in them, so only the takeoff is asserted.
        #expect(engine.flight.takeoffs.count >= 1, "\(name): a takeoff")
        print("nuisance \(name): callouts on the ground \(counts.ground), in the circuit \(counts.circuit), elsewhere \(counts.elsewhere); "
              + "distance-only: ground \(counts.distanceOnlyGround), circuit \(counts.distanceOnlyCircuit), elsewhere \(counts.distanceOnlyElsewhere); "
              + "suppressed \(engine.callouts.suppressed.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
        return counts
    }

    @Test(arguments: ["igc-parser__2017-07-15-lev__1_77fv6kh1.igc", "igc-parser__2017-07-17-lev__FR_77hv14x1.igc"])
    func noCalloutOnTheGroundAndFewerInTheCircuitThanByDistance(_ name: String) throws {
        let counts = try Self.fly(name)
        #expect(counts.ground == 0)
        #expect(counts.circuit < counts.distanceOnlyCircuit || counts.distanceOnlyCircuit == 0,
                "\(counts.circuit) callouts in the circuit, distance-only \(counts.distanceOnlyCircuit)")
    }
}

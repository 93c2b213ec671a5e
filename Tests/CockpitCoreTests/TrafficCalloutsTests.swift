import Glibc
import Testing
@testable import CockpitCore
@testable import CockpitWire
import CockpitTestSupport

/// Traffic callouts from one threat assessment (docs/alerts.md, "Traffic callouts"), checked against encounter
/// geometries worked out from the geometry alone (Tests/Fixtures/encounters, Scripts/encounter-reference.py) and a
/// real FLARM device's alarm levels (Tests/Fixtures/radio-traffic/flarm: PowerFLARM's head-on simulation).
@Suite("Traffic callouts: threat geometry, levels, quiet, mute")
struct TrafficCalloutsTests {
    typealias Level = TrafficThreat.Level

    /// The level the thresholds give for a straight-line encounter at `t` seconds, from the reference's own numbers:
    /// time to closest approach (tcpa₀ − t), the miss distance, the vertical separation then, and the relative speed
    /// worked out here from the two published velocities.
    static func expectedLevel(t: Double, tcpa0: Double, missMeters: Double, verticalFeet: Double, relativeSpeed: Double,
                              rangeMeters: Double, heightNowFeet: Double) -> Level {
        let radius = min(600, max(60, relativeSpeed * 3))
        if rangeMeters <= radius && abs(heightNowFeet) <= 300 { return .warning }
        let tcpa = tcpa0 - t
        guard tcpa > 0, missMeters <= radius, abs(verticalFeet) <= 300 else { return .none }
        return tcpa <= 10 ? .warning : tcpa <= 15 ? .caution : tcpa <= 20 ? .advisory : .none
    }

    static func velocity(_ state: JSONValue?) -> (north: Double, east: Double) {
        let speed = UnitConversions.metersPerSecond(fromKnots: state?["groundSpeedKnots"]?.doubleValue ?? 0)
        let track = (state?["trackDeg"]?.doubleValue ?? 0) * .pi / 180
        return (speed * cos(track), speed * sin(track))
    }

    /// Every straight-line encounter: the assessment at the start matches the reference within 1 s and 20 m (and
    /// 20 ft), each second's level is the one the thresholds give (±1 s at a boundary), and the callout is spoken
    /// when the level is first reached.
    @Test func eachEncounterIsAssessedAsTheGeometrySaysAndCalledOnTime() throws {
        let document = try JSONParser.parse(try FixtureFile.read(Fixtures.path("encounters/encounters.json")))
        var table = ["encounter | tcpa ref / ours (s) | miss ref / ours (m) | vertical ref / ours (ft) | levels (s: level) | spoken at (s)"]
        for scenario in document["scenarios"]?.arrayValue ?? [] where scenario["motion"] == .string("straight-line") {
            let name = scenario["name"]?.stringValue ?? "?"
            let reference = try #require(scenario["reference"])
            let series = scenario["timeSeries"]?.arrayValue ?? []
            let (own, target) = (Self.velocity(scenario["own"]), Self.velocity(scenario["target"]))
            let relativeSpeed = ((target.north - own.north) * (target.north - own.north) + (target.east - own.east) * (target.east - own.east)).squareRoot()
            let start = series.first?["own"]
            var engine = TrafficPictureTests.airborneEngine(latitude: start?["latitudeDeg"]?.doubleValue ?? 0,
                                                            longitude: start?["longitudeDeg"]?.doubleValue ?? 0)
            let base = 100.0
            var levels: [(Double, Level)] = [], spoken: [Double] = [], clocks: [Int] = []
            var first: TrafficThreat?
            for step in series {
                let t = step["t"]?.doubleValue ?? 0
                let at = MonotonicInstant(seconds: base + t)
                let o = step["own"], g = step["target"]
                var fix = TrafficPictureTests.own(latitude: o?["latitudeDeg"]?.doubleValue ?? 0, longitude: o?["longitudeDeg"]?.doubleValue ?? 0,
                                                  feet: o?["altitudeFeet"]?.doubleValue ?? 0, track: o?["trackDeg"]?.doubleValue ?? 0,
                                                  knots: o?["groundSpeedKnots"]?.doubleValue ?? 0, second: base + t)
                fix.climbMetersPerSecond = UnitConversions.meters(fromFeet: scenario["own"]?["verticalSpeedFeetPerMinute"]?.doubleValue ?? 0) / 60
                _ = engine.handle(.gps(.fix(fix)), at: at)
                var observation = RadioObservation(source: .adsbSBS, address: RadioAddress(type: .icao, value: 0x3C6544))
                observation.latitudeDegrees = g?["latitudeDeg"]?.doubleValue
                observation.longitudeDegrees = g?["longitudeDeg"]?.doubleValue
                observation.gnssAltitudeMSLFeet = g?["altitudeFeet"]?.doubleValue
                observation.trackTrueDegrees = g?["trackDeg"]?.doubleValue
                observation.groundSpeedKnots = g?["groundSpeedKnots"]?.doubleValue
                observation.verticalRateFeetPerMinute = scenario["target"]?["verticalSpeedFeetPerMinute"]?.doubleValue
                _ = engine.handle(.radio(.observation(observation)), at: at)
                let effects = engine.handle(.tick, at: at)
                let threat = try #require(engine.callouts.threats["icao 3C6544"], "\(name) t=\(t): not assessed")
                if first == nil { first = threat }
                if levels.last?.1 != threat.level { levels.append((t, threat.level)) }
                for case .announce(let a) in effects where a.id.hasPrefix("traffic.") {
                    spoken.append(t)
                    let hour = ["twelve", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"]
                        .firstIndex { a.text.hasPrefix("traffic, \($0) o'clock") }
                    clocks.append(hour ?? -1)
                }
                let expected = Self.expectedLevel(t: t, tcpa0: reference["tcpaSeconds"]?.doubleValue ?? 0,
                                                  missMeters: reference["missMetres"]?.doubleValue ?? 0,
                                                  verticalFeet: reference["verticalSeparationAtTcpaFeet"]?.doubleValue ?? 0,
                                                  relativeSpeed: relativeSpeed, rangeMeters: step["rangeMetres"]?.doubleValue ?? 0,
                                                  heightNowFeet: step["relativeAltitudeFeet"]?.doubleValue ?? 0)
                let near = [-1.0, 1.0].map { Self.expectedLevel(t: t + $0, tcpa0: reference["tcpaSeconds"]?.doubleValue ?? 0,
                                                               missMeters: reference["missMetres"]?.doubleValue ?? 0,
                                                               verticalFeet: reference["verticalSeparationAtTcpaFeet"]?.doubleValue ?? 0,
                                                               relativeSpeed: relativeSpeed, rangeMeters: step["rangeMetres"]?.doubleValue ?? 0,
                                                               heightNowFeet: step["relativeAltitudeFeet"]?.doubleValue ?? 0) }
                #expect(threat.level == expected || near.contains(threat.level), "\(name) t=\(t): \(threat.level), thresholds say \(expected)")
            }
            let assessed = try #require(first)
            let (tcpa, miss, vertical) = (reference["tcpaClampedSeconds"]?.doubleValue ?? .nan, reference["missClampedMetres"]?.doubleValue ?? .nan,
                                          reference["verticalSeparationAtTcpaClampedFeet"]?.doubleValue ?? .nan)
            #expect(abs(assessed.secondsToClosestApproach - tcpa) <= 1, "\(name): \(assessed.secondsToClosestApproach) s vs \(tcpa) s")
            #expect(abs(assessed.missDistanceMeters - miss) <= 20, "\(name): \(assessed.missDistanceMeters) m vs \(miss) m")
            #expect(abs((assessed.verticalSeparationFeet ?? .nan) - vertical) <= 20, "\(name): \(assessed.verticalSeparationFeet ?? .nan) ft vs \(vertical) ft")
            // Spoken as each level is reached; otherwise only when the clock position has moved two hours or more
            // since the last callout.
            let rises = zip(levels, levels.dropFirst()).filter { $0.1.1 > $0.0.1 && $0.1.1 > .none }.map(\.1.0)
                + (levels.first.map { $0.1 > .none ? [$0.0] : [] } ?? [])
            #expect(Set(rises).isSubset(of: Set(spoken)), "\(name): spoken at \(spoken), levels rose at \(rises)")
            for index in spoken.indices.dropFirst() where !rises.contains(spoken[index]) {
                let moved = TrafficCallouts.hoursApart(clocks[index - 1], clocks[index])
                #expect(moved >= 2, "\(name): said again at \(spoken[index]) s with the clock \(moved) h from the last callout")
            }
            table.append("\(name) | \(fmt(tcpa)) / \(fmt(assessed.secondsToClosestApproach)) | \(fmt(miss)) / \(fmt(assessed.missDistanceMeters)) | "
                         + "\(fmt(vertical)) / \(fmt(assessed.verticalSeparationFeet ?? .nan)) | "
                         + levels.map { "\(Int($0.0)): \($0.1.name)" }.joined(separator: ", ") + " | " + spoken.map { String(Int($0)) }.joined(separator: ", "))
        }
        print(table.joined(separator: "\n"))
    }

    func fmt(_ value: Double) -> String { FixedText.format(value, decimals: 1) }

    /// PowerFLARM's head-on simulation (a target closing at 100 m/s to 92 m, levels 0→3) replayed through the FLARM
    /// source's decoder with the own fixes of the same log: our level never lags the device's by more than 2 s.
    @Test func ourLevelNeverLagsTheFLARMDevicesByMoreThanTwoSeconds() throws {
        let lines = try FixtureFile.read(Fixtures.path("radio-traffic/flarm/PowerMouse_Simulation_S1.txt")).split(whereSeparator: \.isNewline).map(String.init)
        var engine = Engine()
        var second = 0.0
        var device: [(Double, Int)] = [], ours: [(Double, Int)] = []
        for line in lines {
            if line.hasPrefix("$GPRMC") {
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                let latitude = (Double(f[3].prefix(2))! + Double(f[3].dropFirst(2))! / 60) * (f[4] == "S" ? -1 : 1)
                let longitude = (Double(f[5].prefix(3))! + Double(f[5].dropFirst(3))! / 60) * (f[6] == "W" ? -1 : 1)
                second += 1
                var fix = TrafficPictureTests.own(latitude: latitude, longitude: longitude, feet: 1_640, track: Double(f[8])!, knots: Double(f[7])!,
                                                  second: second)
                fix.climbMetersPerSecond = 0
                _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: second))
            } else if line.hasPrefix("$PFLAA"), case .radio(let event)? = FLARMWireDecoder().decode(line) {
                _ = engine.handle(.radio(event), at: MonotonicInstant(seconds: second + 0.1))
                if case .observation(let o) = event { device.append((second, o.alarmLevel ?? 0)) }
                _ = engine.handle(.tick, at: MonotonicInstant(seconds: second + 0.2))
                ours.append((second, engine.callouts.threats["flarm 123456"]?.level.rawValue ?? -1))
            }
        }
        #expect(device.count == 28 && device.last?.1 == 3)
        for level in 1...3 {
            let theirs = try #require(device.first { $0.1 >= level }?.0)
            let mine = try #require(ours.first { $0.1 >= level }?.0)
            #expect(mine <= theirs + 2, "level \(level): FLARM at \(theirs) s, ours at \(mine) s")
            print("FLARM head-on: level \(level) from the device at \(Int(theirs)) s, ours at \(Int(mine)) s (\(Int(mine - theirs)) s)")
        }
    }

    /// A target of a FLARM device's level 2 (caution whatever the geometry) moves round the clock: said once, again
    /// when its clock position has moved two hours (12 → 2 o'clock), not for one hour more (3 o'clock); said again
    /// when the level rises to 3.
    @Test func aCalloutIsRepeatedOnlyForAHigherLevelOrTwoHoursOfClock() throws {
        var engine = TrafficPictureTests.airborneEngine()
        var spoken: [String] = []
        func step(_ second: Double, bearing: Double, level: Int) {
            let at = MonotonicInstant(seconds: second)
            _ = engine.handle(.gps(.fix(TrafficPictureTests.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: second))), at: at)
            var o = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD1234))
            (o.relativeNorthMeters, o.relativeEastMeters, o.relativeVerticalMeters) = (1_500 * cos(bearing * .pi / 180), 1_500 * sin(bearing * .pi / 180), 50)
            o.alarmLevel = level
            _ = engine.handle(.radio(.observation(o)), at: at)
            for effect in engine.handle(.tick, at: at.adding(seconds: 0.1)) {
                if case .announce(let a) = effect, a.id.hasPrefix("traffic.") { spoken.append(a.text) }
            }
        }
        for (index, (bearing, level)) in [(0.0, 2), (0, 2), (60, 2), (90, 2), (90, 2), (90, 3)].enumerated() {
            step(40 + Double(index) * 5, bearing: bearing, level: level)
        }
        #expect(spoken.count == 3, "\(spoken)")
        #expect(spoken.first?.hasPrefix("traffic, twelve o'clock") == true && spoken.dropFirst().first?.hasPrefix("traffic, two o'clock") == true)
        #expect(spoken.last?.hasPrefix("traffic, three o'clock") == true, "\(spoken)")
    }

    /// Quiet where it should be, each suppression counted once per target and reason: the own aircraft on the ground;
    /// a target that says it is on the ground; the circuit, unless on a collision course.
    @Test func quietOnTheGroundAndInTheCircuitAndEachSilenceCounted() throws {
        let own = TrafficPictureTests.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 40)
        func target(_ key: UInt32, north: Double, east: Double, knots: Double, track: Double, onGround: Bool = false) -> PictureTarget {
            let meters = (north * north + east * east).squareRoot()
            let bearing = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
            let relative = RelativeTraffic(latitudeDegrees: 47, longitudeDegrees: 8, distanceNauticalMiles: meters / 1_852, bearingTrueDegrees: bearing,
                                           relativeBearingDegrees: bearing, relativeAltitudeFeet: 0, closureKnots: nil, ageSeconds: 0, deadReckoned: false)
            return PictureTarget(origin: .radio(RadioAddress(type: .icao, value: key)), identifier: key, addressType: "icao", sources: ["adsb-sbs"],
                                 relative: relative, heardLatitudeDegrees: 47, heardLongitudeDegrees: 8, positionAgeSeconds: 0,
                                 groundSpeedKnots: knots, trackTrueDegrees: track, airborne: !onGround)
        }
        // Head-on 1 km ahead, 100 kt each (102.9 m/s relative: protected radius 309 m): 9.7 s, on a collision course.
        // Another 200 m to the left: a threat (inside 309 m), but not a collision course (beyond half the radius).
        let headOn = target(1, north: 1_000, east: 0, knots: 100, track: 180)
        let crossing = target(2, north: 1_000, east: -200, knots: 100, track: 180)
        let taxiing = target(3, north: 30, east: 0, knots: 10, track: 180, onGround: true)
        let picture = TrafficPicture(targets: [headOn, crossing, taxiing])
        var callouts = TrafficCallouts()
        var effects: [Effect] = []
        callouts.update(picture, own: own, airborne: false, inCircuit: false, at: MonotonicInstant(seconds: 1), effects: &effects)
        #expect(callouts.current.isEmpty && callouts.suppressed[.ownOnGround] == 3)
        callouts.update(picture, own: own, airborne: true, inCircuit: true, at: MonotonicInstant(seconds: 2), effects: &effects)
        #expect(callouts.current.map(\.key) == ["icao 000001"], "\(callouts.current.map(\.key))")
        #expect(callouts.suppressed[.targetOnGround] == 1 && callouts.suppressed[.circuit] == 1)
        callouts.update(picture, own: own, airborne: true, inCircuit: true, at: MonotonicInstant(seconds: 3), effects: &effects)
        #expect(callouts.suppressed[.circuit] == 1, "counted once per target")
        callouts.update(picture, own: own, airborne: true, inCircuit: false, at: MonotonicInstant(seconds: 4), effects: &effects)
        #expect(Set(callouts.current.map(\.key)) == ["icao 000001", "icao 000002"])
        #expect(callouts.current.first?.key == "icao 000001", "the most urgent first")
    }

    /// `cockpitctl alerts mute traffic 5m` (a recorded input): said ("traffic alerts muted for five minutes"), the
    /// status shows it, a traffic callout stays on the screen but silent, CHECK OXYGEN still speaks, and it ends.
    @Test func theMuteSilencesTrafficOnlyAndIsSaid() throws {
        var engine = TrafficPictureTests.airborneEngine()
        var spoken: [String] = []
        func note(_ effects: [Effect]) { for case .announce(let a) in effects { spoken.append(a.text) } }
        note(engine.handle(.muteTraffic(seconds: 300), at: MonotonicInstant(seconds: 40)))
        #expect(spoken == ["traffic alerts muted for five minutes"])
        #expect(engine.snapshot.json["traffic"]?["callouts"]?["muted"] == .bool(true))
        var o = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD1234))
        (o.relativeNorthMeters, o.relativeEastMeters, o.relativeVerticalMeters, o.alarmLevel) = (500, 0, 0, 3)
        for second in 45...50 {
            let at = MonotonicInstant(seconds: Double(second))
            _ = engine.handle(.gps(.fix(TrafficPictureTests.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: Double(second)))), at: at)
            _ = engine.handle(.radio(.observation(o)), at: at)
            note(engine.handle(.tick, at: at.adding(seconds: 0.1)))
        }
        #expect(spoken.count == 1, "\(spoken)")
        #expect(engine.alerts.active.contains { $0.kind == "traffic.warning" }, "on the screen")
        #expect(engine.callouts.suppressed[.muted] == 1)
        let effects = engine.handle(.tick, at: MonotonicInstant(seconds: 341))
        #expect(effects.contains(.log(LogLine(.notice, "traffic alerts on again: the mute ended"))))
        #expect(engine.snapshot.json["traffic"]?["callouts"]?["muted"] == .bool(false))
    }
}

/// A moving aircraft whose track is unknown (an SBS velocity line lost, a FLARM target without a track) is not
/// assessed as if it flew north: no threat is made up from a guessed direction.
@Suite("Traffic threat: unknown directions")
struct TrafficThreatDirectionTests {
    @Test func aMovingTargetWithoutATrackIsNotAssessed() {
        let own = TrafficPictureTests.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 40)
        let relative = RelativeTraffic(latitudeDegrees: 47.01, longitudeDegrees: 8, distanceNauticalMiles: 0.6, bearingTrueDegrees: 0,
                                       relativeBearingDegrees: 0, relativeAltitudeFeet: 0, closureKnots: nil, ageSeconds: 0, deadReckoned: false)
        func target(knots: Double?, track: Double?) -> PictureTarget {
            PictureTarget(origin: .radio(RadioAddress(type: .icao, value: 1)), identifier: 1, addressType: "icao", sources: ["adsb-sbs"],
                          relative: relative, heardLatitudeDegrees: 47.01, heardLongitudeDegrees: 8, positionAgeSeconds: 0,
                          groundSpeedKnots: knots, trackTrueDegrees: track, airborne: true)
        }
        #expect(TrafficThreat(own: own, target: target(knots: 100, track: nil)) == nil)
        // With its track: 0.6 nm (1,111 m) head-on, 102.9 m/s closing, 10.8 s: a caution (10–15 s).
        #expect(TrafficThreat(own: own, target: target(knots: 100, track: 180))?.level == .caution)
        #expect(TrafficThreat(own: own, target: target(knots: 0, track: nil)) != nil, "standing still needs no track")
        var trackless = own
        trackless.trackTrueDegrees = nil
        #expect(TrafficThreat(own: trackless, target: target(knots: 0, track: nil)) == nil, "nor the own aircraft's")
    }
}

import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The fused traffic picture every output reads: one target per aircraft whatever heard it, a FLARM device's own alarm
/// level kept, and the close encounters the flight log keeps — checked against encounter geometries worked out
/// independently from the geometry alone (Tests/Fixtures/encounters: Scripts/encounter-reference.py).
@Suite("Traffic picture: fusion, alarm levels, encounters")
struct TrafficPictureTests {
    static let utc = TrafficStateTests.utc

    static func own(latitude: Double, longitude: Double, feet: Double, track: Double, knots: Double, second: Double) -> GPSFix {
        var fix = GPSFix(mode: .threeDimensional)
        fix.utc = utc.adding(seconds: second)
        fix.latitudeDegrees = latitude
        fix.longitudeDegrees = longitude
        fix.altitudeMSLMeters = UnitConversions.meters(fromFeet: feet)
        fix.groundSpeedMetersPerSecond = UnitConversions.metersPerSecond(fromKnots: knots)
        fix.trackTrueDegrees = track
        fix.horizontalErrorMeters = 5
        return fix
    }

    static func heard(_ source: RadioSourceKind, _ address: RadioAddress, latitude: Double, longitude: Double, mslFeet: Double?,
                      track: Double, knots: Double) -> Event {
        var o = RadioObservation(source: source, address: address)
        o.latitudeDegrees = latitude
        o.longitudeDegrees = longitude
        o.gnssAltitudeMSLFeet = mslFeet
        o.trackTrueDegrees = track
        o.groundSpeedKnots = knots
        return .radio(.observation(o))
    }

    /// Flies the own aircraft straight for `seconds` so that the flight state is airborne, then returns the engine.
    static func airborneEngine(latitude: Double = 47, longitude: Double = 8, seconds: Int = 40) -> Engine {
        var engine = Engine()
        for second in 0..<seconds {
            let at = MonotonicInstant(seconds: Double(second))
            _ = engine.handle(.gps(.fix(own(latitude: latitude, longitude: longitude, feet: 3_000, track: 0, knots: 100,
                                            second: Double(second)))), at: at)
            _ = engine.handle(.tick, at: at)
        }
        #expect(engine.flight.isAirborne)
        return engine
    }

    /// Every encounter of the reference: both aircraft flown second by second along the reference's own time series
    /// (the target as an OGN beacon with its GNSS MSL altitude), then the encounter the flight log receives — its
    /// closest approach within 20 m of the reference's, the height at it within 20 ft, at the reference's time ± 1 s.
    @Test func theFlightLogKeepsEachEncountersClosestApproachAsTheGeometrySays() throws {
        let document = try JSONParser.parse(try FixtureFile.read(Fixtures.path("encounters/encounters.json")))
        let scenarios = document["scenarios"]?.arrayValue ?? []
        #expect(scenarios.count >= 7)
        for scenario in scenarios {
            let name = scenario["name"]?.stringValue ?? "?"
            let series = scenario["timeSeries"]?.arrayValue ?? []
            let reference = try #require(scenario["reference"])
            let (missMeters, atSeconds, verticalFeet): (Double, Double, Double)
            if let circles = reference["trueMinimumOver120s"] {
                (missMeters, atSeconds, verticalFeet) = (circles["horizontalMetres"]?.doubleValue ?? .nan, circles["timeSeconds"]?.doubleValue ?? .nan,
                                                         circles["verticalSeparationFeet"]?.doubleValue ?? .nan)
            } else {
                (missMeters, atSeconds, verticalFeet) = (reference["missClampedMetres"]?.doubleValue ?? .nan,
                                                         reference["tcpaClampedSeconds"]?.doubleValue ?? .nan,
                                                         reference["verticalSeparationAtTcpaClampedFeet"]?.doubleValue ?? .nan)
            }
            let start = series.first?["own"]
            var engine = Self.airborneEngine(latitude: start?["latitudeDeg"]?.doubleValue ?? 0, longitude: start?["longitudeDeg"]?.doubleValue ?? 0)
            let base = 100.0
            var effects: [Effect] = []
            for step in series {
                let t = step["t"]?.doubleValue ?? 0
                let at = MonotonicInstant(seconds: base + t)
                let o = step["own"], g = step["target"]
                effects += engine.handle(.gps(.fix(Self.own(latitude: o?["latitudeDeg"]?.doubleValue ?? 0, longitude: o?["longitudeDeg"]?.doubleValue ?? 0,
                                                            feet: o?["altitudeFeet"]?.doubleValue ?? 0, track: o?["trackDeg"]?.doubleValue ?? 0,
                                                            knots: o?["groundSpeedKnots"]?.doubleValue ?? 0, second: base + t))), at: at)
                effects += engine.handle(Self.heard(.ogn, RadioAddress(type: .ogn, value: 0xABCDEF),
                                                    latitude: g?["latitudeDeg"]?.doubleValue ?? 0, longitude: g?["longitudeDeg"]?.doubleValue ?? 0,
                                                    mslFeet: g?["altitudeFeet"]?.doubleValue, track: g?["trackDeg"]?.doubleValue ?? 0,
                                                    knots: g?["groundSpeedKnots"]?.doubleValue ?? 0), at: at)
                effects += engine.handle(.tick, at: at)
            }
            effects += engine.handle(.endOfInput, at: MonotonicInstant(seconds: base + 121))
            let encounters = effects.compactMap { effect -> FlightLogEncounter? in
                if case .trafficEncounter(let encounter) = effect { return encounter }
                return nil
            }
            #expect(encounters.count == 1, "\(name): \(encounters.count) encounters")
            guard let encounter = encounters.first else { continue }
            let shownMeters = encounter.closestNauticalMiles * UnitConversions.metersPerNauticalMile
            let shownAt = encounter.utc.seconds(since: Self.utc) - base
            #expect(abs(shownMeters - missMeters) <= 20, "\(name): closest \(shownMeters) m, reference \(missMeters) m")
            // Side by side (no relative motion) every second is the closest: no time to compare.
            if reference["relativeVelocityZero"] != .bool(true) {
                #expect(abs(shownAt - atSeconds) <= 1, "\(name): at \(shownAt) s, reference \(atSeconds) s")
            }
            #expect(abs((encounter.relativeAltitudeFeet ?? .nan) - verticalFeet) <= 20, "\(name): \(encounter.relativeAltitudeFeet ?? .nan) ft")
            #expect(encounter.altitudeDatum == "msl" && encounter.target == "ogn ABCDEF" && encounter.sources == "ogn")
            print("encounter \(name): closest \(shownMeters) m at \(shownAt) s (reference \(missMeters) m at \(atSeconds) s), "
                  + "height \(encounter.relativeAltitudeFeet ?? .nan) ft (reference \(verticalFeet) ft)")
        }
    }

    /// A cockpitd box heard through the relay and the same aircraft's ADS-B are one target when position, height and
    /// track agree; a relay target with a different track, or a radio target without a height, stays apart.
    @Test func aRelayTargetAndItsOwnADSBAreOneAircraftOnlyWhenEverythingAgrees() {
        func picture(relayTrack: Double, radioFeet: Double?) -> TrafficPicture {
            var engine = Self.airborneEngine()
            let at = MonotonicInstant(seconds: 40)
            let fix = Self.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 40)
            _ = engine.handle(.gps(.fix(fix)), at: at)
            let report = TrafficPacket.Report(type: .report, flags: [.airborne], identifier: 0x0ABCDE, sequence: 1, utc: Self.utc.adding(seconds: 40),
                                              latitudeDegrees: 47.01, longitudeDegrees: 8.0005, altitudeFeet: 3_500, groundSpeedKnots: 90,
                                              trackTrueDegrees: relayTrack, verticalSpeedFeetPerMinute: 0)
            _ = engine.handle(.trafficReport(report), at: at)
            _ = engine.handle(Self.heard(.adsbSBS, RadioAddress(type: .icao, value: 0x4B1A2C), latitude: 47.0101, longitude: 8.0005,
                                         mslFeet: radioFeet, track: 182, knots: 92), at: at)
            return engine.trafficPicture(at: at)
        }
        let fused = picture(relayTrack: 180, radioFeet: 3_450)
        #expect(fused.targets.count == 1)
        #expect(fused.targets.first?.sources == ["adsb-sbs", "cockpitd"])
        #expect(fused.targets.first?.mergedCockpitdIdentifier == 0x0ABCDE && fused.targets.first?.addressType == "icao")
        #expect(picture(relayTrack: 90, radioFeet: 3_450).targets.count == 2, "tracks 92° apart: two aircraft")
        #expect(picture(relayTrack: 180, radioFeet: nil).targets.count == 2, "no height to compare: two aircraft")
        #expect(picture(relayTrack: 180, radioFeet: 4_000).targets.count == 2, "500 ft apart: two aircraft")
    }

    /// A FLARM device's alarm level for a target is never downgraded: level 3 from the device is level 3 in `$PFLAA`,
    /// even where our own geometry (no closure here) gives none, with the ID type FLARM (2).
    @Test func theDevicesAlarmLevelIsKeptInTheFLARMOutput() throws {
        var engine = Self.airborneEngine()
        let at = MonotonicInstant(seconds: 40)
        _ = engine.handle(.gps(.fix(Self.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 40))), at: at)
        var o = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD8F12))
        (o.relativeNorthMeters, o.relativeEastMeters, o.relativeVerticalMeters) = (-1_234, 1_234, 220)
        o.alarmLevel = 3
        o.emitterCategory = 9
        _ = engine.handle(.radio(.observation(o)), at: at)
        let picture = EFBPicture(engine.snapshot)
        let target = try #require(picture.targets.first)
        let report = try #require(GDL90Cycle.trafficReport(target, picture: picture))
        #expect(report.emitterCategory == 9 && report.addressType == .adsbSelfAssigned && report.trafficAlert, "a glider, a FLARM ID, alarmed")
        #expect(target.threatLevel == 0)
        #expect(EFBPicture.alarmLevel(target) == 3)
        let fields = try #require(FLARMNMEA.pflaa(target)).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fields[1] == "3" && fields[2] == "-1234" && fields[3] == "1234" && fields[4] == "220" && fields[5] == "2" && fields[6] == "DD8F12",
                "\(fields)")
        // Three seconds later without a word from the device, its level is no longer its current judgement.
        let later = MonotonicInstant(seconds: 43.5)
        _ = engine.handle(.gps(.fix(Self.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 43.5))), at: later)
        #expect(EFBPicture(engine.snapshot).targets.first.map(EFBPicture.alarmLevel) == 0)
    }

    /// Without a cabin barometer, an ADS-B aircraft's pressure altitude is compared with the own GPS height through
    /// the geometric–barometric difference another ADS-B aircraft reports (both altitudes within 5 s); without one,
    /// the relative altitude stays unknown. Own: 1,000 m above the ellipsoid = 3,280.8 ft. A reports 5,000 ft pressure
    /// and 5,300 ft geometric (+300 ft); B reports 4,000 ft pressure: 4,300 − 3,280.8 = 1,019.2 ft above.
    @Test func aPressureAltitudeReachesTheGPSDatumThroughTheReportedDifference() throws {
        var engine = Self.airborneEngine()
        let at = MonotonicInstant(seconds: 40)
        var fix = Self.own(latitude: 47, longitude: 8, feet: 3_000, track: 0, knots: 100, second: 40)
        fix.altitudeHAEMeters = 1_000
        _ = engine.handle(.gps(.fix(fix)), at: at)
        var b = RadioObservation(source: .adsbSBS, address: RadioAddress(type: .icao, value: 0xB))
        (b.latitudeDegrees, b.longitudeDegrees, b.pressureAltitudeFeet) = (47.05, 8, 4_000)
        _ = engine.handle(.radio(.observation(b)), at: at)
        var bRow = try #require(engine.trafficPicture(at: at).targets.first { $0.identifier == 0xB })
        #expect(bRow.relative?.relativeAltitudeFeet == nil && bRow.relative?.altitudeDatum == nil)
        var a = RadioObservation(source: .adsbSBS, address: RadioAddress(type: .icao, value: 0xA))
        (a.latitudeDegrees, a.longitudeDegrees, a.pressureAltitudeFeet) = (47.2, 8.1, 5_000)
        _ = engine.handle(.radio(.observation(a)), at: at)
        a.pressureAltitudeFeet = nil
        a.geometricAltitudeHAEFeet = 5_300
        _ = engine.handle(.radio(.observation(a)), at: MonotonicInstant(seconds: 41))
        #expect(engine.radioTraffic.geometricMinusPressure?.feet == 300)
        bRow = try #require(engine.trafficPicture(at: MonotonicInstant(seconds: 41)).targets.first { $0.identifier == 0xB })
        #expect(abs((bRow.relative?.relativeAltitudeFeet ?? .nan) - 1_019.2) < 0.1, "\(bRow.relative?.relativeAltitudeFeet ?? .nan)")
        #expect(bRow.relative?.altitudeDatum == .ellipsoidFromPressure)
        // Two minutes later the difference is no longer used.
        let later = MonotonicInstant(seconds: 41 + GeometricPressureDifference.usableForSeconds + 1)
        #expect(engine.radioTraffic.geometricMinusPressure?.feet(at: later) == nil)
    }

    /// The picture's order — nearest first, unplaced last, then by `key` ("icao 4D2023") — is kept when the keys are
    /// compared without being written: the same order as sorting on the written keys, ties in distance included, for
    /// every address type, identifiers above 24 bits and a type that begins another.
    @Test func theOrderIsDistanceThenTheWrittenKey() {
        var generator = SystemRandomNumberGenerator()
        let types = ["icao", "flarm", "ogn", "random", "non-icao", "cockpitd", "icao2"]
        for _ in 0..<50 {
            let targets = (0..<120).map { _ -> PictureTarget in
                let distance: Double? = Bool.random(using: &generator) ? nil : Double(Int.random(in: 0...5, using: &generator))
                let relative = distance.map {
                    RelativeTraffic(latitudeDegrees: 47, longitudeDegrees: 8, distanceNauticalMiles: $0, bearingTrueDegrees: 0,
                                    ageSeconds: 0, deadReckoned: false)
                }
                let identifier = UInt32.random(in: 0...0x30, using: &generator) | (Bool.random(using: &generator) ? 0x0100_0000 : 0)
                return PictureTarget(origin: .relay(identifier), identifier: identifier, addressType: types.randomElement(using: &generator)!,
                                     sources: [], relative: relative, heardLatitudeDegrees: 47, heardLongitudeDegrees: 8, positionAgeSeconds: 0)
            }
            let written = targets.sorted {
                let d0 = $0.relative?.distanceNauticalMiles ?? .infinity, d1 = $1.relative?.distanceNauticalMiles ?? .infinity
                return d0 != d1 ? d0 < d1 : $0.key < $1.key
            }
            #expect(TrafficPicture.nearestFirst(targets) == written)
        }
    }
}

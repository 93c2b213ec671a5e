import Testing
@testable import CockpitCore

/// The radio picture's rules (docs/radio-traffic.md): the own aircraft learned from co-location only while moving,
/// the target bound, each source's age limit, and the relative altitude only on one datum. Every expected value is
/// worked out here from the rule's numbers, not read from the code's output.
@Suite struct RadioTrafficStateTests {
    static let knotsInMetersPerSecond = 1852.0 / 3600
    /// 47° N 8° E, 1,000 m above the ellipsoid (950 m MSL), 120 kt on 090°, horizontal error 5 m.
    static func own(speedKnots: Double = 120) -> GPSFix {
        GPSFix(mode: .threeDimensional, latitudeDegrees: 47, longitudeDegrees: 8, altitudeMSLMeters: 950, altitudeHAEMeters: 1000,
               groundSpeedMetersPerSecond: speedKnots * knotsInMetersPerSecond, trackTrueDegrees: 90, horizontalErrorMeters: 5)
    }
    static let address = RadioAddress(type: .icao, value: 0x4B_1A2C)

    /// An ADS-B message placing the target `northMeters` from the own fix with a geometric altitude `aboveFeet` over
    /// the own 1,000 m (3,280.84 ft) above the ellipsoid.
    static func heard(northMeters: Double = 0, aboveFeet: Double = 0, address: RadioAddress = address) -> RadioInputEvent {
        var o = RadioObservation(source: .adsbSBS, address: address)
        o.latitudeDegrees = 47 + northMeters / 111_132.0   // metres per degree of latitude at 47° N (Bowring), ±0.1 %
        o.longitudeDegrees = 8
        o.geometricAltitudeHAEFeet = 1000 / 0.3048 + aboveFeet
        return .observation(o)
    }

    static func fly(_ event: (Int) -> RadioInputEvent, seconds: ClosedRange<Int>, own: GPSFix,
                    configuration: RadioTrafficConfiguration = RadioTrafficConfiguration()) -> [Int: RadioTrafficState] {
        var state = RadioTrafficState()
        var after: [Int: RadioTrafficState] = [:]
        for second in seconds {
            state.apply(event(second), at: MonotonicInstant(seconds: Double(second)), own: own, ownPressureAltitudeFeet: nil,
                        configuration: configuration)
            after[second] = state
        }
        return after
    }

    /// Co-located while moving at 120 kt: a target at 9 s, the own aircraft from the 10th second on (co-located since
    /// the first message at 0 s; the rule asks 10 s), and never shown again.
    @Test func aTargetThatStaysWhereTheOwnAircraftIsWhileMovingIsLearnedAsOwnship() {
        let after = Self.fly({ _ in Self.heard(northMeters: 40, aboveFeet: 150) }, seconds: 0...12, own: Self.own())
        #expect(after[9]?.targets[Self.address] != nil)
        #expect(after[10]?.targets[Self.address] == nil)
        #expect(after[10]?.ownship[Self.address] == .learned)
        #expect(after[12]?.targets.isEmpty == true)
        #expect(after[12]?.ownshipMessages == 2)
    }

    /// Parked (0 kt), an aircraft beside us is co-located and stays a target: learning needs 30 kt.
    @Test func parkedNothingIsLearned() {
        let after = Self.fly({ _ in Self.heard() }, seconds: 0...30, own: Self.own(speedKnots: 0))
        #expect(after[30]?.targets[Self.address] != nil)
        #expect(after[30]?.ownship.isEmpty == true)
    }

    /// The horizontal limit at 120 kt with 5 m error: 5 + 61.73 × 2 + 30 = 158.5 m. At 200 m it is another aircraft;
    /// 301 ft above is outside ±300 ft.
    @Test func farEnoughApartHorizontallyOrVerticallyIsAnotherAircraft() {
        let apart = Self.fly({ _ in Self.heard(northMeters: 200) }, seconds: 0...20, own: Self.own())
        #expect(apart[20]?.ownship.isEmpty == true)
        let inside = Self.fly({ _ in Self.heard(northMeters: 150) }, seconds: 0...20, own: Self.own())
        #expect(inside[20]?.ownship[Self.address] == .learned)
        let above = Self.fly({ _ in Self.heard(aboveFeet: 301) }, seconds: 0...20, own: Self.own())
        #expect(above[20]?.ownship.isEmpty == true)
    }

    /// A configured address is the ownship from its first message, whatever the source calls its kind.
    @Test func aConfiguredAddressIsTheOwnshipAtOnce() {
        var configuration = RadioTrafficConfiguration()
        configuration.ownshipAddresses = [0x4B_1A2C]
        let flarm = RadioAddress(type: .flarm, value: 0x4B_1A2C)
        let after = Self.fly({ _ in Self.heard(northMeters: 5_000, address: flarm) }, seconds: 0...0, own: Self.own(),
                             configuration: configuration)
        #expect(after[0]?.targets.isEmpty == true)
        #expect(after[0]?.ownship[flarm] == .configured)
    }

    /// With room for 3, the 4th aircraft replaces the one heard longest ago, and it is counted.
    @Test func theTableIsBoundedAndTheOldestGoesFirst() {
        var configuration = RadioTrafficConfiguration()
        configuration.maximumTargets = 3
        let after = Self.fly({ Self.heard(northMeters: 5_000, address: RadioAddress(type: .icao, value: UInt32($0 + 1))) },
                             seconds: 0...3, own: Self.own(), configuration: configuration)
        #expect(after[3]?.targets.keys.map(\.value).sorted() == [2, 3, 4])
        #expect(after[3]?.droppedForSpace == 1)
    }

    /// ADS-B targets last 20 s after their last message, FLARM targets 6 s (RadioSourceKind.staleAfterSeconds).
    @Test func eachSourcesTargetsAgeOutAfterItsOwnLimit() {
        var state = RadioTrafficState()
        var flarm = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD_1234))
        flarm.relativeNorthMeters = 500; flarm.relativeEastMeters = 0; flarm.relativeVerticalMeters = 30
        state.apply(Self.heard(northMeters: 5_000), at: MonotonicInstant(seconds: 0), own: Self.own(), ownPressureAltitudeFeet: nil,
                    configuration: RadioTrafficConfiguration())
        state.apply(.observation(flarm), at: MonotonicInstant(seconds: 0), own: Self.own(), ownPressureAltitudeFeet: nil,
                    configuration: RadioTrafficConfiguration())
        var effects: [Effect] = []
        state.tick(at: MonotonicInstant(seconds: 6), effects: &effects)
        #expect(state.targets.count == 2)
        state.tick(at: MonotonicInstant(seconds: 6.5), effects: &effects)
        #expect(state.targets.count == 1 && state.targets[Self.address] != nil)
        state.tick(at: MonotonicInstant(seconds: 20), effects: &effects)
        #expect(state.targets.count == 1)
        state.tick(at: MonotonicInstant(seconds: 20.5), effects: &effects)
        #expect(state.targets.isEmpty)
        #expect(state.agedOut == 2)
    }

    /// The relative altitude on one datum only: pressure against the own barometer; geometric against the own
    /// ellipsoid height; FLARM's own vertical; a pressure altitude without an own barometer is unknown, never compared
    /// with a GPS altitude.
    @Test func theRelativeAltitudeIsWorkedOutOnOneDatumOrNotAtAll() {
        let own = Self.own()
        var target = RadioTarget(address: Self.address, at: .zero)
        target.pressureAltitudeFeet = .init(value: 3_500, at: .zero, source: .adsbSBS)
        #expect(RadioGeometry.relativeAltitude(target, own: own, ownPressureAltitudeFeet: 3_000) == (500, .pressure))
        #expect(RadioGeometry.relativeAltitude(target, own: own, ownPressureAltitudeFeet: nil) == (nil, nil))
        target.geometricAltitudeHAEFeet = .init(value: 4_000, at: .zero, source: .adsbSBS)
        let (feet, datum) = RadioGeometry.relativeAltitude(target, own: own, ownPressureAltitudeFeet: nil)
        #expect(datum == .ellipsoid)
        #expect(abs((feet ?? 0) - (4_000 - 3_280.84)) < 0.01)
        target.relativeVerticalMeters = .init(value: 30, at: .zero, source: .flarm)
        let flarm = RadioGeometry.relativeAltitude(target, own: own, ownPressureAltitudeFeet: 3_000)
        #expect(flarm.1 == .flarmRelative && abs((flarm.0 ?? 0) - 98.425) < 0.01)
    }

    /// A FLARM target 500 m north of the own fix is placed there: 500 / 6,371,008.8 rad = 0.0044966° north.
    @Test func aFlarmRelativePositionIsPlacedFromTheOwnFix() {
        var state = RadioTrafficState()
        var flarm = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD_1234))
        flarm.relativeNorthMeters = 500; flarm.relativeEastMeters = 0
        state.apply(.observation(flarm), at: .zero, own: Self.own(), ownPressureAltitudeFeet: nil, configuration: RadioTrafficConfiguration())
        let position = state.targets.values.first?.position?.value
        #expect(abs((position?.latitudeDegrees ?? 0) - 47.0044966) < 1e-6)
        #expect(position?.longitudeDegrees == 8)
        #expect(position?.fromRelative == true)
    }
}

/// A receiver that dies is said: disconnected at once, silent after its source's limit (ADS-B: 60 s), and back.
@Suite struct RadioSourceHealthTests {
    static func logs(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .log(let line) = $0 { line.message } else { nil } }
    }

    @Test func aSilentReceiverIsSaidAfterItsLimitAndAgainWhenItSpeaks() {
        var engine = Engine()
        var said: [String] = []
        said += Self.logs(engine.handle(.radio(.connected(source: .adsbSBS, endpoint: "127.0.0.1:30003")), at: MonotonicInstant(seconds: 0)))
        said += Self.logs(engine.handle(.radio(.other(source: .adsbSBS)), at: MonotonicInstant(seconds: 1)))
        for second in 2...60 { said += Self.logs(engine.handle(.tick, at: MonotonicInstant(seconds: Double(second)))) }
        #expect(!engine.radioTraffic.silent.contains(.adsbSBS))   // 59 s after the last line at 1 s
        said += Self.logs(engine.handle(.tick, at: MonotonicInstant(seconds: 61)))
        #expect(engine.radioTraffic.silent.contains(.adsbSBS))     // 60 s after it
        said += Self.logs(engine.handle(.radio(.other(source: .adsbSBS)), at: MonotonicInstant(seconds: 62)))
        said += Self.logs(engine.handle(.tick, at: MonotonicInstant(seconds: 63)))
        said += Self.logs(engine.handle(.radio(.disconnected(source: .adsbSBS, reason: "the server closed the connection")),
                                        at: MonotonicInstant(seconds: 64)))
        #expect(said.filter { $0.hasPrefix("adsb-sbs") } == [
            "adsb-sbs: connected to 127.0.0.1:30003",
            "adsb-sbs: connected, but nothing received for 60 s",
            "adsb-sbs: receiving again",
            "adsb-sbs: no traffic from this receiver: the server closed the connection",
        ])
        let status = engine.snapshot.json["radioTraffic"]?["sources"]?["adsb-sbs"]
        #expect(status?["state"] == .string("from the recording"))   // not configured in this core: replayed
        #expect(status?["connected"] == .bool(false))
    }
}

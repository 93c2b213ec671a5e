import Testing
@testable import CockpitCore

@Suite("Glide callout and summary")
struct GlideCalloutTests {
    static func lookup(track: Double?) -> GlideLookup {
        GlideLookup(origin: GlideReach.Origin(latitudeDegrees: 44.15, longitudeDegrees: -71.6, altitudeMSLMeters: 1500),
                    performance: GlidePerformance.defaults(for: .glider), margins: GlideMargins(), wind: GlideWind(),
                    radiusNauticalMiles: 30, maximumCandidates: 200, declinationDegrees: -15, trackTrueDegrees: track)
    }

    static func result(course: Double, distanceMeters: Double, arrivalMeters: Double?, verdict: GlideReach.Verdict) -> GlideReach.Result {
        GlideReach.Result(candidate: GlideReach.Candidate(ident: "KHIE", name: "Whitefield", latitudeDegrees: 44.37, longitudeDegrees: -71.55,
                                                          elevationMSLMeters: 327),
                          distanceMeters: distanceMeters, courseTrueDegrees: course, groundSpeedKnots: 55,
                          arrivalHeightMeters: arrivalMeters, verdict: verdict)
    }

    /// 60° right of the track is two o'clock; 6.0 nm; 300 m + 800 ft arrival is 800 ft to spare.
    @Test func saysNameClockMilesAndSpare() {
        let field = Self.result(course: 70, distanceMeters: 6 * 1852, arrivalMeters: 300 + UnitConversions.meters(fromFeet: 800), verdict: .reachable)
        let condition = GlideCallout.condition(field, lookup: Self.lookup(track: 10))
        #expect(condition.text == "NEAREST IN GLIDE: Whitefield, 2 o'clock, 6 nm, 800 ft to spare")
        #expect(condition.phrase == ["nearest in glide", ",", "Whitefield", ",", "two", "o'clock", ",", "six", "miles", ",",
                                     "eight", "hundred", "feet", "to spare"])
        #expect(condition.priority == .caution)
    }

    @Test func whenTheCalloutSpeaks() {
        var configuration = GlideConfiguration()
        #expect(!GlideCallout.wanted(kind: .powered, configuration: configuration, heightAboveGroundFeet: 100))
        configuration.engineOut = true
        #expect(GlideCallout.wanted(kind: .powered, configuration: configuration, heightAboveGroundFeet: nil))
        #expect(GlideCallout.wanted(kind: .glider, configuration: configuration, heightAboveGroundFeet: 1_000))
        #expect(!GlideCallout.wanted(kind: .glider, configuration: configuration, heightAboveGroundFeet: 2_000))
        #expect(!GlideCallout.wanted(kind: .paraglider, configuration: configuration, heightAboveGroundFeet: nil))
    }

    @Test func noneWithinGlideIsSaid() {
        let blocked = Self.result(course: 70, distanceMeters: 9_000, arrivalMeters: 500, verdict: .blocked)
        let update = GlideUpdate(lookup: Self.lookup(track: 0), results: [blocked], candidates: 1, databaseAvailable: true, terrainAvailable: true)
        #expect(GlideText.summary(update, margins: GlideMargins()) == "none within glide")
        let unsure = Self.result(course: 70, distanceMeters: 9_000, arrivalMeters: 500, verdict: .terrainUnknown)
        let partly = GlideUpdate(lookup: Self.lookup(track: 0), results: [unsure], candidates: 1, databaseAvailable: true, terrainAvailable: true)
        #expect(GlideText.summary(partly, margins: GlideMargins()).hasPrefix("none within glide over known terrain"))
    }

    /// Through the engine: airborne at 120 kt on track 000, every lookup answered with Whitefield 60° right, 6 nm, 800 ft
    /// to spare. With engine-out the board says it; without, nothing. Returns the words spoken and the lookups asked.
    static func fly(engineOut: Bool) -> (spoken: [[String]], lookups: Int) {
        var configuration = CoreConfiguration()
        configuration.glide.engineOut = engineOut
        var engine = Engine(configuration: configuration)
        var spoken: [[String]] = [], lookups = 0
        for second in 1...120 {
            let at = MonotonicInstant(seconds: Double(second))
            let fix = GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10).adding(seconds: Double(second)),
                             mode: .threeDimensional, latitudeDegrees: 44.15, longitudeDegrees: -71.6, altitudeMSLMeters: 1_500,
                             groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 120), trackTrueDegrees: 0)
            var effects = engine.handle(.gps(.fix(fix)), at: at.adding(seconds: -0.4))
            effects += engine.handle(.tick, at: at)
            for effect in effects {
                if case .lookupGlide(let lookup) = effect {
                    lookups += 1
                    let field = result(course: 60, distanceMeters: 6 * 1852, arrivalMeters: 300 + UnitConversions.meters(fromFeet: 800),
                                       verdict: .reachable)
                    effects += engine.handle(.glide(GlideUpdate(lookup: lookup, results: [field], candidates: 1, databaseAvailable: true,
                                                                terrainAvailable: true)), at: at)
                    effects += engine.handle(.tick, at: at.adding(seconds: 0.01))
                }
            }
            for effect in effects {
                if case .announce(let announcement) = effect, announcement.id == "glide.nearest" { spoken.append(announcement.words) }
            }
        }
        return (spoken, lookups)
    }

    @Test func theBoardSaysItWithTheEngineOutOnly() throws {
        let out = Self.fly(engineOut: true)
        #expect(out.lookups > 10)
        let words = try #require(out.spoken.first)
        #expect(words == ["nearest in glide", ",", "Whitefield", ",", "two", "o'clock", ",", "six", "miles", ",",
                          "eight", "hundred", "feet", "to spare"])
        #expect(out.spoken.count >= 1 && out.spoken.count <= 2, "said once, again after 60 s: \(out.spoken.count)")
        let running = Self.fly(engineOut: false)
        #expect(running.lookups == out.lookups && running.spoken.isEmpty)
    }

    /// A 20 kt wind from 30° off the nose at 55 kt: crab into 10 kt of crosswind, 17.3 kt of headwind.
    @Test func groundSpeedWithWind() throws {
        let speed = try #require(GlideReach.groundSpeedKnots(courseTrueDegrees: 0, airspeedKnots: 55, wind: GlideWind(fromTrueDegrees: 30, speedKnots: 20)))
        #expect(abs(speed - ((55.0 * 55 - 100).squareRoot() - 10 * 3.0.squareRoot())) < 1e-9)
        #expect(GlideReach.groundSpeedKnots(courseTrueDegrees: 0, airspeedKnots: 20, wind: GlideWind(fromTrueDegrees: 0, speedKnots: 25)) == nil)
    }
}

import RealModule
import Testing
@testable import CockpitCore
import CockpitTestSupport

@Suite("METAR/TAF wind and runway components")
struct WindTests {
    struct Case: Sendable, CustomStringConvertible {
        var report: String, direction: Double?, speed: Double, gust: Double?, sector: String?
        var description: String { report }
    }

    static let cases: [Case] = [
        Case(report: "METAR LSZH 221220Z 23025KT 9999 FEW040 12/05 Q1008 NOSIG", direction: 230, speed: 25, gust: nil, sector: nil),
        Case(report: "METAR KORD 221251Z 18030G42KT 10SM BKN250 18/08 A2990", direction: 180, speed: 30, gust: 42, sector: nil),
        Case(report: "METAR EGLL 221250Z VRB03KT CAVOK 14/09 Q1021", direction: nil, speed: 3, gust: nil, sector: nil),
        Case(report: "METAR EDDF 221250Z 00000KT 9999 SKC 10/02 Q1030", direction: nil, speed: 0, gust: nil, sector: nil),
        Case(report: "METAR UUEE 221230Z 27008MPS 9999 OVC020 02/M01 Q1002", direction: 270, speed: 8 * 3600 / 1852.0, gust: nil, sector: nil),
        Case(report: "METAR ZZZZ 221230Z 09036KMH 9999 SCT030 20/10 Q1012", direction: 90, speed: 36 * 1000 / 1852.0, gust: nil, sector: nil),
        Case(report: "METAR LFPG 221230Z 22012KT 200V260 9999 BKN030 15/10 Q1015", direction: 220, speed: 12, gust: nil, sector: "200-260"),
        Case(report: "SPECI KDEN 221305Z 36015G25KT 10SM FEW100 05/M05 A3012", direction: 360, speed: 15, gust: 25, sector: nil),
        Case(report: "TAF KJFK 221120Z 2212/2318 31012KT P6SM SCT050 FM222000 33015G25KT P6SM", direction: 310, speed: 12, gust: nil, sector: nil),
        Case(report: "EGKK 221250Z 10105KT 9999 SCT020 12/08 Q1018", direction: 101, speed: 5, gust: nil, sector: nil),
    ]

    @Test(arguments: cases)
    func parsesWindGroups(_ c: Case) throws {
        let (direction, speed, gust, sector) = (c.direction, c.speed, c.gust, c.sector)
        let wind = try #require(WindParser.parseReport(c.report))
        #expect(wind.directionTrueDegrees == direction)
        #expect(abs(wind.speedKnots - speed) < 1e-9)
        #expect(wind.gustKnots == gust)
        if let sector {
            #expect("\(Int(wind.variableFromDegrees ?? -1))-\(Int(wind.variableToDegrees ?? -1))" == sector)
        } else {
            #expect(wind.variableFromDegrees == nil)
        }
    }

    @Test func missingWindAndPreference() throws {
        #expect(WindParser.parseReport("METAR LSGG 221250Z /////KT 9999 NCD 10/05 Q1020") == nil)
        #expect(WindParser.parseReport("METAR LSGG 221250Z AUTO NIL") == nil)
        let mixed = """
            TAF LSZH 221100Z 2212/2318 24015KT 9999 FEW040
            SPECI LSZH 221240Z 25020G30KT 9999 FEW040 12/05 Q1008
            METAR LSZH 221220Z 23025KT 9999 FEW040 12/05 Q1008
            """
        #expect(WindParser.bestWind(in: mixed)?.source == .metar)
        #expect(WindParser.bestWind(in: "TAF X 1 24015KT\nSPECI X 2 25020G30KT")?.source == .speci)
        #expect(WindParser.bestWind(in: "TAF X 1 24015KT")?.directionTrueDegrees == 240)
    }

    static func runway(_ low: (String, Double?), _ high: (String, Double?), closed: Bool = false) -> Runway {
        Runway(lengthFeet: 8_000, widthFeet: 150, surface: .hard, surfaceRaw: "CON", lighted: true, closed: closed,
               ends: [RunwayEnd(ident: low.0, headingTrueDegrees: low.1), RunwayEnd(ident: high.0, headingTrueDegrees: high.1)])
    }

    @Test func componentsAgainstHandCalculations() throws {
        // LSZH 10/28 (96°/276° true) with 230/25: angle to 28 is −46°: head 25·cos 46° = 17.37 kt, cross 25·sin 46° = 17.98 kt
        // from the left; runway 10 gets the same as tailwind and from the right.
        let wind = try #require(WindParser.parseGroup("23025KT"))
        let components = WindComponents.components(wind: wind, runways: [Self.runway(("10", 96), ("28", 276))], declinationDegrees: 3)
        let r28 = try #require(components.first { $0.runwayIdent == "28" })
        #expect(abs(r28.headwindKnots! - 25 * Double.cos(46 * .pi / 180)) < 1e-9)
        #expect(abs(r28.headwindKnots! - 17.37) < 0.01)
        #expect(abs(r28.crosswindKnots! - (-17.98)) < 0.01)
        let r10 = try #require(components.first { $0.runwayIdent == "10" })
        #expect(abs(r10.headwindKnots! + 17.37) < 0.01 && abs(r10.crosswindKnots! - 17.98) < 0.01)
        #expect(WindComponents.recommended(components)?.runwayIdent == "28")
    }

    @Test func gustsSectorsVariableAndCalm() throws {
        let runways = [Self.runway(("18", 180), ("36", 360))]
        // 18030G42KT straight down runway 18: 30 kt head, gust 42 kt head, no crosswind.
        let straight = WindComponents.components(wind: WindParser.parseGroup("18030G42KT")!, runways: runways, declinationDegrees: nil)
        let r18 = try #require(straight.first { $0.runwayIdent == "18" })
        #expect(abs(r18.headwindKnots! - 30) < 1e-9 && abs(r18.gustHeadwindKnots! - 42) < 1e-9 && abs(r18.crosswindKnots!) < 1e-9)
        // 20012KT 150V250 on runway 18: worst crosswind at 250°: 12·sin 70° = 11.28 kt.
        var sector = WindParser.parseGroup("20012KT")!
        sector.variableFromDegrees = 150; sector.variableToDegrees = 250
        let worst = try #require(WindComponents.components(wind: sector, runways: runways, declinationDegrees: nil).first { $0.runwayIdent == "18" })
        #expect(abs(worst.worstCrosswindKnots - 12 * Double.sin(70 * .pi / 180)) < 0.01)
        // VRB: components unknown, worst case the whole speed; no recommendation. Calm: nothing to recommend either.
        let variable = WindComponents.components(wind: WindParser.parseGroup("VRB05KT")!, runways: runways, declinationDegrees: nil)
        #expect(variable.allSatisfy { $0.headwindKnots == nil && $0.worstCrosswindKnots == 5 })
        #expect(WindComponents.recommended(variable) == nil)
        #expect(WindParser.parseGroup("00000KT")!.isCalm)
        #expect(WindComponents.recommended(WindComponents.components(wind: WindParser.parseGroup("00000KT")!, runways: runways,
                                                                      declinationDegrees: nil)) == nil)
    }

    @Test func headingFromTheRunwayNumberIsMagneticAndGetsTheDeclination() throws {
        // No true heading in the data: runway 27 means 270° MAGNETIC; with 10° E declination that is 280° true.
        let runway = Self.runway(("09", nil), ("27", nil))
        let components = WindComponents.components(wind: WindParser.parseGroup("28020KT")!, runways: [runway], declinationDegrees: 10)
        let r27 = try #require(components.first { $0.runwayIdent == "27" })
        #expect(r27.headingDerivedFromNumber)
        #expect(abs(r27.headingTrueDegrees - 280) < 1e-9)
        #expect(abs(r27.headwindKnots! - 20) < 1e-9)
        // Without a declination the number is not turned into a true heading at all.
        #expect(WindComponents.components(wind: WindParser.parseGroup("28020KT")!, runways: [runway], declinationDegrees: nil).isEmpty)
        // Helipads get no heading from their "number" and are never recommended.
        let pad = Self.runway(("01H", nil), ("19H", nil))
        #expect(WindComponents.components(wind: WindParser.parseGroup("19020KT")!, runways: [pad], declinationDegrees: 3).isEmpty)
        #expect(WindComponents.isHelipad("H1") && WindComponents.isHelipad("01H") && !WindComponents.isHelipad("09") && !WindComponents.isHelipad("H"))
        // Closed runways are left out.
        #expect(WindComponents.components(wind: WindParser.parseGroup("28020KT")!, runways: [Self.runway(("09", 90), ("27", 270), closed: true)],
                                          declinationDegrees: nil).isEmpty)
    }
}

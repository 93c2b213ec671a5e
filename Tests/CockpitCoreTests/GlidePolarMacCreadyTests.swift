import Testing
@testable import CockpitCore
import CockpitTestSupport

/// MacCready speed to fly, ballast and bugs on the ASK 21 default polar, against a hand computation and a scan.
@Suite("Glide polar: MacCready, ballast, bugs")
struct GlidePolarMacCreadyTests {
    let polar = GlidePolar.ask21

    /// By hand, from Schleicher's figures (best glide 33.5 at 85 km/h, minimum sink 0.65 m/s): V = 23.611 m/s, sink at V
    /// 0.70481 m/s, a = 1 / (4 · 33.5² · 0.05481) = 0.0040646 s/m, c = a·V² = 2.2659 m/s. The tangent from (0, −MC)
    /// touches where a·v² = c + MC: MC 1.5 → v = √(3.7659 / 0.0040646) = 30.44 m/s = 109.6 km/h = 59.2 kt;
    /// MC 0 → best glide, 85 km/h; MC 3 → √(5.2659 / 0.0040646) = 35.99 m/s = 129.6 km/h.
    @Test func macCreadySpeedMatchesTheHandComputation() {
        #expect(abs(polar.macCreadySpeedMetersPerSecond(macCready: 1.5) * 3.6 - 109.6) < 0.1)
        #expect(abs(polar.macCreadySpeedMetersPerSecond(macCready: 0) * 3.6 - 85.0) < 0.01)
        #expect(abs(polar.macCreadySpeedMetersPerSecond(macCready: 3) * 3.6 - 129.6) < 0.1)
    }

    /// The speed found maximises the average cross-country speed v·MC / (s(v) + MC): a scan every 1 mm/s finds no better.
    @Test(arguments: [0.5, 1.0, 2.0, 4.0])
    func macCreadySpeedMaximisesTheCrossCountrySpeed(_ macCready: Double) {
        func crossCountry(_ v: Double) -> Double { v * macCready / (polar.sinkMetersPerSecond(atSpeed: v) + macCready) }
        var best = 0.0, bestSpeed = 0.0
        var v = polar.minimumSinkSpeedMetersPerSecond
        while v <= polar.maximumSpeedMetersPerSecond {
            if crossCountry(v) > best { best = crossCountry(v); bestSpeed = v }
            v += 0.001
        }
        #expect(abs(polar.macCreadySpeedMetersPerSecond(macCready: macCready) - bestSpeed) < 0.002)
    }

    /// Ballast: at r = m/m₀ every point (v, s) of the polar moves to (v·√r, s·√r) (same lift coefficient, more weight);
    /// the best glide ratio stays, at a speed √r higher. Bugs: every sink rate the percentage higher.
    @Test func ballastAndBugsScaleThePolar() {
        let ratio = 1.3, root = 1.3.squareRoot()
        let heavy = polar.scaled(massRatio: ratio, bugsPercent: 0)
        for v in [20.0, 25.0, 30.0, 40.0] {
            #expect(abs(heavy.sinkMetersPerSecond(atSpeed: v * root) - root * polar.sinkMetersPerSecond(atSpeed: v)) < 1e-9)
        }
        #expect(abs(heavy.bestGlideRatio - polar.bestGlideRatio) < 1e-9)
        #expect(abs(heavy.bestGlideSpeedMetersPerSecond - root * polar.bestGlideSpeedMetersPerSecond) < 1e-9)
        let bugged = polar.scaled(massRatio: 1, bugsPercent: 10)
        for v in [20.0, 25.0, 30.0, 40.0] {
            #expect(abs(bugged.sinkMetersPerSecond(atSpeed: v) - 1.1 * polar.sinkMetersPerSecond(atSpeed: v)) < 1e-9)
        }
        #expect(abs(bugged.bestGlideRatio - polar.bestGlideRatio / 1.1) < 1e-9)
    }

    /// The configuration applies them only to a polar; a mass without the polar's reference mass is not applied.
    @Test func configurationAppliesMassOnlyWithAReference() {
        var glide = GlideConfiguration()
        glide.massKilograms = 520
        #expect(glide.performance(for: .glider).polar == GlidePolar.ask21)
        glide.polarMassKilograms = 400
        let scaled = glide.performance(for: .glider).polar
        #expect(scaled == GlidePolar.ask21.scaled(massRatio: 1.3, bugsPercent: 0))
        glide.bugsPercent = 5
        #expect(glide.performance(for: .glider).polar == GlidePolar.ask21.scaled(massRatio: 1.3, bugsPercent: 5))
        #expect(glide.performance(for: .powered).polar == nil)
    }

    /// The table has no rows: every type is unknown, and the glider flies the ASK 21 (said so in the status).
    @Test func unknownGliderTypeFliesTheDefault() {
        #expect(GliderPolarTable.embedded.entries.isEmpty)
        var glide = GlideConfiguration()
        glide.gliderTypeFromFile = "Discus 2"
        #expect(glide.gliderTypeEntry == nil)
        #expect(glide.performance(for: .glider).polar == GlidePolar.ask21)
        #expect(StatusSnapshot.gliderTypeText(glide, kind: .glider) == "Discus 2 (from the IGC file header): unknown type, ASK 21 default polar used")
    }

    /// A row read from the table's own format is found by type and alias, case and spacing aside.
    @Test func tableRowsAreReadAndFound() {
        let csv = "# comment\n" + GliderPolarTable.columns.joined(separator: ",") + "\n"
            + "Example 1,EX1;Ex-One,400,10,250,500,100,80,0.62,120,1,170,2.1,40,95,test\n"
            + "Broken,,400,10,250,500,100,x,0.62,120,1,170,2.1,40,95,test\n"
        let table = GliderPolarTable(csv: csv)
        #expect(table.entries.count == 1)
        #expect(table.refusedRows == 1)
        #expect(table.entry(named: "example1")?.type == "Example 1")
        #expect(table.entry(named: "ex one")?.referenceMassKilograms == 400)
        #expect(table.entry(named: "Discus 2") == nil)
    }

    /// The embedded table is the one in Data/ (its rows, comments aside).
    @Test func embeddedTableIsTheDataFile() throws {
        let text = try FixtureFile.read(Fixtures.directory + "/../../Data/glider-polars.csv")
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
        #expect(rows == GliderPolarTable.embeddedCSV)
    }
}

import Testing
import CockpitCore
import CockpitClient
import CockpitTestSupport

/// One quantity, one wording on one screen: the panel, the traffic table and the radar (ASCII and Unicode) over every
/// bundled flight and the demo's own glider with a real FLARM's collision simulation. A pilot says "same altitude";
/// numbers carry the ASCII minus; the panel's TRAFFIC line and the radar give the nearest aircraft's altitude the
/// same way (to 100 ft, as the callout says it and the radar's tag draws it).
@Suite("Panel and radar wording")
struct PanelWordingTests {
    static let layout = RadarLayout(width: 80, height: 24)!

    static func radar(_ status: JSONValue, _ symbols: RadarSymbols) -> String {
        RadarRenderer.render(RadarPicture(status: status), layout: layout, options: RadarOptions(symbols: symbols)).text
    }

    /// The hundreds of feet in the radar's list entry for `identifier` (the list beside the disc: the glyph, then the
    /// tag, "*+04", "v!-12").
    static func listedHundreds(_ radar: String, _ identifier: String) -> Int? {
        guard let column = layout.listColumn,
              let line = radar.split(separator: "\n").first(where: { $0.contains(" " + identifier) }) else { return nil }
        let entry = Array(line).dropFirst(column + 1)
        return Int(String(entry.prefix { "!~+-0123456789".contains($0) }.filter { $0 != "!" && $0 != "~" }))
    }

    /// Checks every status; returns how many had a nearest aircraft with a known altitude (compared on both).
    @discardableResult
    static func check(_ statuses: [JSONValue], _ name: String) -> Int {
        var compared = 0
        for status in statuses {
            let panel = StatusPanel.render(status)
            let ascii = radar(status, .plain)
            let texts = [("panel", panel), ("traffic table", status["traffic"].map(TrafficText.render) ?? ""), ("radar", ascii),
                         ("radar unicode", radar(status, .unicode))]
            for (what, text) in texts {
                #expect(!text.contains("same height"), "\(name) \(what): \(text)")
                #expect(!text.contains("−"), "\(name) \(what): \(text.split(separator: "\n").filter { $0.contains("−") })")
            }
            guard let nearest = status["traffic"]?["targets"]?.arrayValue?.first,
                  nearest["distanceNauticalMiles"]?.doubleValue != nil, nearest["relativeAltitudeFeet"]?.doubleValue != nil,
                  let identifier = nearest["identifier"]?.stringValue else { continue }
            guard let hundreds = listedHundreds(ascii, identifier) else {
                Issue.record("\(name): \(identifier) not in the radar's list: \(ascii)")
                continue
            }
            let said = hundreds == 0 ? "same altitude" : "\(abs(hundreds) * 100) ft \(hundreds > 0 ? "above" : "below")"
            #expect(panel.contains(", \(said)"), "\(name): the radar lists \(identifier) at \(hundreds) hundred ft: \(panel)")
            compared += 1
        }
        return compared
    }

    @Test(arguments: PanelWidthTests.flights)
    func everyBundledFlight(_ file: String) throws {
        Self.check(try PanelWidthTests.statuses(Fixtures.path(file)), file)
    }

    /// The spacing of the FLARM recording's statuses (the replay ReplaySummaryTextTests' summary of it comes from).
    static let flarmEverySeconds = 5.0

    /// Every 5 s of the flight, the FLARM simulation's target among them (from 11:26:16 UTC, about 30 s on the radar).
    @Test func theDemoGliderWithFLARMTraffic() throws {
        let recording = try #require(ReplaySummaryTextTests.flarmRecording, "the FLARM recording could not be made")
        let compared = Self.check(try PanelWidthTests.statuses(recording, everySeconds: Self.flarmEverySeconds), "demo own glider with FLARM")
        #expect(compared >= 5, "the FLARM's target was compared on \(compared) screens")
    }
}

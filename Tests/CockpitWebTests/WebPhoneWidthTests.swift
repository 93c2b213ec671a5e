import CockpitCore
import CockpitTestSupport
import Glibc
import Testing

/// The Now page at two phones' widths (360 px, the narrowest common Android phone; 430 px, a large iPhone), day and
/// night, in Chromium's headless shell, against a daemon replaying a glider that stands on its airfield before launch
/// (Leverkusen, 15 July 2017: stationary for 30 minutes). The in-page test script (Tests/Fixtures/web/webtest.js,
/// `/?layout=W`) reports where each tab sits and all the text the page shows. About 20 s.
@Suite("cockpit-web at a phone's width", .serialized)
struct WebPhoneWidthTests {
    static let groundedFlight = Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc")
    /// Apple's and WCAG 2.5.5's smallest touch target, CSS pixels.
    static let tapTargetPixels = 44.0

    @Test func theNowPageOnTheGroundAt360And430Pixels() throws {
        let shell = try #require(Browser.headlessShell, "Debian's chromium-headless-shell is needed (Scripts/setup.sh installs it)")
        let run = try WebRun.start(flight: Self.groundedFlight)
        defer { run.stop() }

        // cockpit-web says where to open the page as a URL.
        #expect(run.webOutput.contains("open http://127.0.0.1:\(run.port)/ in a browser"), "\(run.webOutput)")

        // The daemon's own word first: on the ground, its height from the airfield's elevation below zero (the GPS
        // altitude is under the field's published elevation), which the page must not show as a negative AGL.
        var flight: JSONValue?
        let grounded = waitFor(seconds: 40, every: 0.05) {
            flight = (try? runCockpitctl(run.socket)).flatMap { try? JSONParser.parse($0) }?["flight"]
            return flight?["state"]?.stringValue == "on-ground" && (flight?["heightAboveGroundFeet"]?.doubleValue ?? 0) < 0
        }
        #expect(grounded, "\(flight ?? .null)")

        for width in [360, 430] {
            // The check's reports carry a token of their page load (`run`): the layouts taken are those of the load
            // whose check finished. A browser that failed to start is tried again.
            var finished: JSONValue?
            for attempt in 1...3 where finished == nil {
                let browser = Browser.startAtWidth(shell, width, url: "http://127.0.0.1:\(run.port)/?layout=\(width)#now/day",
                                                   profile: run.directory + "/chromium-\(width)-\(attempt)",
                                                   stderr: run.directory + "/chromium-\(width)-\(attempt).err")
                _ = waitFor(seconds: 45, every: 0.05) {
                    finished = run.reports().last { $0["kind"] == .string("layout-done") && $0["width"]?.int64Value == Int64(width) }
                    return finished != nil
                }
                Browser.stop(browser)
            }
            let load = try #require(finished?["run"], "no finished layout check at \(width) px: \(run.reports().filter { $0["kind"] != .string("layout") }.suffix(3))")
            let layouts = run.reports().filter { $0["kind"] == .string("layout") && $0["run"] == load }
            #expect(layouts.map { $0["theme"]?.stringValue ?? "?" } == ["day", "night"], "\(width) px: \(layouts.count) layouts")
            for layout in layouts { check(layout, width: width) }
        }
    }

    func check(_ layout: JSONValue, width: Int) {
        let theme = layout["theme"]?.stringValue ?? "?"
        let at = "\(width) px, \(theme)"
        #expect(layout["errors"]?.arrayValue?.isEmpty == true, "\(at): \(layout["errors"] ?? .null)")
        // The tab bar is one line: every tab at the same height on the page, each a full touch target, all in view.
        let tabs = layout["tabs"]?.arrayValue ?? []
        #expect(tabs.count == 7, "\(at): \(tabs.count) tabs")
        let tops = Set(tabs.compactMap { $0["offsetTop"]?.doubleValue })
        #expect(tops.count == 1, "\(at): tabs on \(tops.count) lines, tops \(tops.sorted())")
        for tab in tabs {
            let label = tab["label"]?.stringValue ?? "?"
            #expect(!label.isEmpty, "\(at): a tab without a label")
            #expect((tab["height"]?.doubleValue ?? 0) >= Self.tapTargetPixels, "\(at): \(label) is \(tab["height"] ?? .null) px high")
            #expect((tab["width"]?.doubleValue ?? 0) >= Self.tapTargetPixels, "\(at): \(label) is \(tab["width"] ?? .null) px wide")
            #expect((tab["left"]?.doubleValue ?? -1) >= 0 && (tab["right"]?.doubleValue ?? .infinity) <= Double(width) + 0.5,
                    "\(at): \(label) is outside the screen (\(tab["left"] ?? .null)–\(tab["right"] ?? .null))")
        }
        #expect((layout["navHeight"]?.doubleValue ?? 0) < 2 * Self.tapTargetPixels, "\(at): the bar is \(layout["navHeight"] ?? .null) px high")
        #expect((layout["navScrollWidth"]?.doubleValue ?? .infinity) <= (layout["navClientWidth"]?.doubleValue ?? 0), "\(at): the bar needs scrolling")

        // On the ground the page says so in words, and shows no height above ground at all.
        #expect(layout["flight"]?["state"] == .string("on-ground"), "\(at): \(layout["flight"] ?? .null)")
        #expect((layout["flight"]?["heightAboveGroundFeet"]?.doubleValue ?? 0) < 0, "\(at): \(layout["flight"] ?? .null)")
        #expect(layout["state"] == .string("On the ground"), "\(at): \(layout["state"] ?? .null)")
        let text = layout["pageText"]?.stringValue ?? ""
        #expect(!text.contains("on-ground"), "\(at): \(text)")
        #expect(!text.contains("ft AGL") && !text.contains("ft below") && !text.contains("ft above"), "\(at): \(text)")
        #expect(layout["detail"] == .string("Glider"), "\(at): \(layout["detail"] ?? .null)")
    }
}

import CockpitCore
import CockpitTestSupport
import Glibc
import Testing

/// The Now page at two phones' widths (360 px, the narrowest common Android phone; 430 px, a large iPhone), day and
/// night, in headless Chromium, against a daemon replaying a glider that stands on its airfield before launch
/// (Leverkusen, 15 July 2017: stationary for 30 minutes). The in-page test script (Tests/Fixtures/web/webtest.js,
/// `/?layout=W`) reports where each tab sits and all the text the page shows. About 20 s.
@Suite("cockpit-web at a phone's width", .serialized)
struct WebPhoneWidthTests {
    static let groundedFlight = Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc")
    /// Apple's and WCAG 2.5.5's smallest touch target, CSS pixels.
    static let tapTargetPixels = 44.0

    @Test func theNowPageOnTheGroundAt360And430Pixels() throws {
        let chromium = try #require(Browser.chromium, "Debian's chromium is needed (Scripts/setup.sh installs it)")
        let run = try WebRun.start(flight: Self.groundedFlight)
        defer { run.stop() }

        // cockpit-web says where to open the page as a URL.
        #expect(run.webOutput.contains("open http://127.0.0.1:\(run.port)/ in a browser"), "\(run.webOutput)")

        // The daemon's own word first: on the ground, its height from the airfield's elevation below zero (the GPS
        // altitude is under the field's published elevation) — the case where the page once showed "-176 ft AGL".
        var flight: JSONValue?
        let grounded = waitWall(seconds: 20) {
            flight = (try? runCockpitctl(run.socket)).flatMap { try? JSONParser.parse($0) }?["flight"]
            return flight?["state"]?.stringValue == "on-ground" && (flight?["heightAboveGroundFeet"]?.doubleValue ?? 0) < 0
        }
        #expect(grounded, "\(flight ?? .null)")

        for width in [360, 430] {
            // Chromium's screenshot mode ends the browser once the page has loaded and been drawn; on a loaded machine
            // that can come before the page's first status and its reports, so a run without a report is tried again.
            var done = false
            for attempt in 1...3 where !done {
                let browser = Browser.startAtWidth(chromium, width, url: "http://127.0.0.1:\(run.port)/?layout=\(width)#now/day",
                                                   profile: run.directory + "/chromium-\(width)-\(attempt)",
                                                   screenshot: run.directory + "/now-\(width).png",
                                                   stderr: run.directory + "/chromium-\(width).err")
                done = waitWall(seconds: 30) {
                    run.reports().contains { ($0["kind"] == .string("layout-done") || $0["kind"] == .string("layout-stuck")) && $0["width"]?.int64Value == Int64(width) }
                }
                Browser.stop(browser)
            }
            #expect(done, "no layout report at \(width) px: \(run.reports().suffix(2))")
            let layouts = run.reports().filter { $0["kind"] == .string("layout") && $0["width"]?.int64Value == Int64(width) }.suffix(2)
            #expect(layouts.count == 2, "\(run.reports().filter { $0["kind"] != .string("layout") }.suffix(3))")
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

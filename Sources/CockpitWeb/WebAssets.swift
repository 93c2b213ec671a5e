import CockpitProtocol

/// The page: one HTML document, one style sheet, one script, all compiled into the binary (nothing fetched from
/// anywhere else; the Content-Security-Policy holds the browser to that). Their text is in the files of Page/, which
/// the EmbedPage build plugin makes into the static strings of `WebPage`; the script is their four JavaScript files
/// in the order below, served as one `/app.js`.
struct WebAssets: Sendable {
    let index: [UInt8]
    let css: [UInt8]
    let script: [UInt8]

    init(testScript: Bool) {
        var html = WebPage.indexHTML.replacingOccurrences(of: "{{VERSION}}", with: "cockpit-web \(CockpitVersion.version)")
        html = html.replacingOccurrences(of: "{{TEST}}", with: testScript ? #"<script src="/test.js" defer></script>"# : "")
        index = Array(html.utf8)
        css = Array(WebPage.styleCSS.utf8)
        script = Array(WebPage.script.utf8)
    }

    /// Every asset's size: the page weight.
    var totalBytes: Int { index.count + css.count + script.count }

    func response(_ path: String) -> WebResponse {
        switch path {
        case "/app.css": WebResponse(status: .ok, contentType: "text/css; charset=utf-8", body: css)
        case "/app.js": WebResponse(status: .ok, contentType: "text/javascript; charset=utf-8", body: script)
        default: WebResponse(status: .ok, contentType: "text/html; charset=utf-8", body: index)
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials is not linked for this alone).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension WebPage {
    /// The page's script: the words first (pure functions the other parts and the tests call), then the event stream,
    /// tabs and the Now and Box pages, then Traffic, Altitude and Flights, then Where to go, whose last line starts
    /// the page.
    static let scriptParts = [wordsJS, coreJS, pagesJS, planJS]
    static let script = scriptParts.joined()
}

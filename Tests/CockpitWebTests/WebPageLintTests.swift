@testable import CockpitWeb
import Testing

/// The page's files checked against each other, without a JavaScript engine: what the script looks up in the document
/// is there. A renamed element or tab otherwise shows only as a blank value or a dead tab in a browser.
@Suite("cockpit-web: the page's files agree")
struct WebPageLintTests {
    /// Every id the script looks up literally (`$('…')`, `set('…', …)`) is an element of index.html or one the script
    /// itself names (`.id='…'`).
    @Test func everyElementTheScriptLooksUpExists() throws {
        let defined = Set(try Self.captures(#"id="([^"]+)""#, in: WebPage.indexHTML) + Self.captures(#"\.id='([^']+)'"#, in: WebPage.script))
        let used = Set(try Self.captures(#"\$\('([^']+)'\)"#, in: WebPage.script) + Self.captures(#"\bset\('([^']+)'"#, in: WebPage.script))
        #expect(used.count >= 20, "\(used.sorted())")
        #expect(used.subtracting(defined).isEmpty, "looked up, not in the page: \(used.subtracting(defined).sorted())")
    }

    /// Every page the script routes to (`PAGES`) has its section (`page-<name>`, looked up as `'page-'+p`) and its tab
    /// (`#<name>`), and every tab leads to one of them.
    @Test func everyPageHasItsSectionAndTab() throws {
        let list = try #require(try Self.captures(#"const PAGES=\[([^\]]*)\]"#, in: WebPage.script).first)
        let pages = try Self.captures(#"'([a-z]+)'"#, in: list)
        #expect(pages == ["now", "where", "traffic", "altitude", "flights", "box"])
        let ids = Set(try Self.captures(#"id="([^"]+)""#, in: WebPage.indexHTML))
        let tabs = try Self.captures(##"<a href="#([a-z]+)""##, in: WebPage.indexHTML)
        for page in pages { #expect(ids.contains("page-" + page), "no section page-\(page)") }
        #expect(tabs == pages)
    }

    /// The document names only the assets cockpit-web serves (everything else answers with the document itself).
    @Test func theDocumentNamesOnlyServedAssets() throws {
        let named = try Self.captures(#"(?:src|href)="(/[^"]*)""#, in: WebPage.indexHTML)
        #expect(named.sorted() == ["/app.css", "/app.js"])
        let assets = WebAssets(testScript: false)
        #expect(assets.response("/app.css").body == assets.css && assets.response("/app.js").body == assets.script)
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let regex = try Regex(pattern)
        return text.matches(of: regex).compactMap { $0.output.count > 1 ? $0.output[1].substring.map(String.init) : nil }
    }
}

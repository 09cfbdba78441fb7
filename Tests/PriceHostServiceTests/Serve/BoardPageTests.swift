import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import Testing

/// The board's page as `serve` embeds it: small, self-contained, and runnable under its
/// own Content-Security-Policy (which names the inline script and style by their hashes).
struct BoardPageTests {
    let html = BoardPage.html

    /// The text between `<tag>` and `</tag>`, each time it occurs.
    static func elements(_ tag: String, in html: String = BoardPage.html) -> [String] {
        html.components(separatedBy: "<\(tag)>").dropFirst().compactMap { $0.components(separatedBy: "</\(tag)>").first }
    }

    @Test func itIsAtMost50KiB() {
        #expect(html.utf8.count <= 50 * 1024, "\(html.utf8.count) bytes")
        #expect(BoardPage.response.body.count == html.utf8.count)
    }

    @Test func itReferencesNothingOutsideItsOwnServer() throws {
        // The one absolute URL is SVG's namespace, a name that is never fetched.
        let absolute = try Regex(#"https?://[^\s'"`)<]*"#)
        let urls = html.matches(of: absolute).map { String(html[$0.range]) }
        #expect(Set(urls) == ["http://www.w3.org/2000/svg"], "\(urls)")
        #expect(html.matches(of: try Regex(#"(?i)(src|href|action)\s*=\s*(?!["']?data:)"#)).isEmpty, "only data: in src/href")
        #expect(!html.contains("//cdn") && !html.contains("@import") && !html.contains("url("))
        for banned in ["<img", "<iframe", "<object", "<embed", "<base", "import(", "WebSocket", "EventSource", "innerHTML", "outerHTML", "document.write"] {
            #expect(!html.contains(banned), "\(banned)")
        }
        // Every request the script makes is to a path of its own server: the stream and the board's
        // config directly, the charts' candles and history through getJSON.
        let fetches = html.matches(of: try Regex(#"fetch\([^,)]*,"#)).map { String(html[$0.range]) }
        #expect(fetches == ["fetch('/v1/stream?' + query,", "fetch(path + '?' + query,", "fetch('/v1/board?' + query,"], "\(fetches)")
        let paths = html.matches(of: try Regex(#"getJSON\('[^']*'"#)).map { String(html[$0.range]) }
        #expect(paths == ["getJSON('/v1/candles'", "getJSON('/v1/history'"], "\(paths)")
    }

    @Test func theTokenTravelsOnlyInTheAuthorizationHeader() throws {
        let script = BoardPage.script
        #expect(script.contains("h.Authorization = 'Bearer ' + token"))
        #expect(script.contains("sessionStorage.setItem(KEY, token)"))
        // What outlives the tab (localStorage) is the chart range alone, never the token.
        let kept = script.matches(of: try Regex(#"localStorage\.[a-zA-Z]+\([^)]*\)"#)).map { String(script[$0.range]) }
        #expect(kept == ["localStorage.getItem(RANGE_KEY)", "localStorage.getItem(RANGE_KEY)", "localStorage.setItem(RANGE_KEY, range)"], "\(kept)")
        #expect(!script.contains("console."), "nothing logged")
        // The form has no name to submit under, and its field none: not even a browser's default submission puts it in a URL.
        #expect(!html.contains("name=\"token\"") && html.contains("<input id=\"token\" type=\"password\""))
        #expect(BoardPage.contentSecurityPolicy.contains("form-action 'none'"))
    }

    @Test func theContentSecurityPolicyAllowsOnlyTheInlineScriptAndStyleByTheirHashes() throws {
        let scripts = Self.elements("script"), styles = Self.elements("style")
        #expect(scripts.count == 1 && styles.count == 1)
        let policy = BoardPage.contentSecurityPolicy
        let base64 = { (text: String) in Data(SHA256.digest(of: Array(text.utf8))).base64EncodedString() }
        #expect(policy.contains("script-src 'sha256-\(base64(try #require(scripts.first)))'"), "\(policy)")
        #expect(policy.contains("style-src 'sha256-\(base64(try #require(styles.first)))'"), "\(policy)")
        #expect(policy.hasPrefix("default-src 'none';") && policy.contains("connect-src 'self'"))
        #expect(!policy.contains("unsafe") && !policy.contains("http"))
        // What the policy would block is not used: inline handlers and style attributes.
        #expect(html.matches(of: try Regex(#"(?i)\son[a-z]+\s*="#)).isEmpty)
        #expect(!html.contains(" style=\""))
        let headers = Dictionary(BoardPage.response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(headers["Content-Security-Policy"] == policy)
        #expect(headers["Content-Type"] == "text/html; charset=utf-8" && headers["Cache-Control"] == "no-store")
    }

    @Test func thePageIsReadableWithoutTheDrawing() {
        #expect(html.contains("<html lang=\"en\">") && html.contains("name=\"viewport\""))
        #expect(html.contains("role=\"status\" aria-live=\"polite\""))
        #expect(html.contains("<label for=\"token\">"))
        #expect(html.contains("prefers-color-scheme:dark"))
        let script = BoardPage.script
        #expect(script.contains("role: 'img'") && script.contains("'aria-labelledby': id + 't'"), "each chart has a name in words")
        // The charts' range: a group with a legend, each choice a radio button inside its label.
        #expect(html.contains("<fieldset id=\"range\">\n<legend>Charts</legend>"))
        for (value, name) in [("15m", "15 min"), ("1h", "1 hour"), ("1d", "1 day")] {
            #expect(html.contains("<label><input type=\"radio\" name=\"range\" value=\"\(value)\"> \(name)</label>"), "\(name)")
        }
        #expect(script.contains("scope: 'col'") && script.contains("scope: 'row'"))
    }

    /// The page inlines `chart.js` then `board.js` as one script, and `board.css`, as they are
    /// written, less each file's last newline: what SwiftPM embeds at build time is the file, byte
    /// for byte (the page was 23,304 bytes when the two first files lived in Swift strings).
    @Test func theScriptAndStyleAreTheBoardFilesByteForByte() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/Sources/PriceHostService/Serve/Board/"
        let chart = try String(contentsOfFile: folder + "chart.js", encoding: .utf8)
        let js = try String(contentsOfFile: folder + "board.js", encoding: .utf8)
        let css = try String(contentsOfFile: folder + "board.css", encoding: .utf8)
        #expect(chart.hasPrefix("'use strict';\n") && chart.hasSuffix(";\n})();\n") && js.hasSuffix(";\n})();\n") && css.hasSuffix("}\n"))
        let script = String(chart.dropLast()) + "\n" + String(js.dropLast())
        #expect(BoardPage.script == script)
        #expect(BoardPage.style == String(css.dropLast()))
        #expect(Self.elements("script") == [script] && Self.elements("style") == [String(css.dropLast())])
        #expect(BoardPage.response.body.count == html.utf8.count)
    }
}

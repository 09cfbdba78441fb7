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
        for banned in ["<img", "<iframe", "<object", "<embed", "<base", "import(", "WebSocket", "EventSource", "localStorage", "innerHTML", "outerHTML", "document.write"] {
            #expect(!html.contains(banned), "\(banned)")
        }
        // Every request the script makes is to a path of its own server.
        let fetches = html.matches(of: try Regex(#"fetch\([^,)]*,"#)).map { String(html[$0.range]) }
        #expect(fetches.count == 3 && fetches.allSatisfy { $0.hasPrefix("fetch('/v1/") }, "\(fetches)")
    }

    @Test func theTokenTravelsOnlyInTheAuthorizationHeader() {
        let script = BoardPage.script
        #expect(script.contains("h.Authorization = 'Bearer ' + token"))
        #expect(script.contains("sessionStorage.setItem(KEY, token)"))
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
        #expect(script.contains("role: 'img'") && script.contains("'aria-labelledby': id + 't'"), "the sparkline has a name in words")
        #expect(script.contains("scope: 'col'") && script.contains("scope: 'row'"))
    }

    /// The page inlines `board.js` and `board.css` as they are written, less each file's last
    /// newline: what SwiftPM embeds at build time is the file, byte for byte, and the page
    /// is what it was when the two lived in Swift strings (23,304 bytes then).
    @Test func theScriptAndStyleAreTheBoardFilesByteForByte() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/Sources/PriceHostService/Serve/Board/"
        let js = try String(contentsOfFile: folder + "board.js", encoding: .utf8)
        let css = try String(contentsOfFile: folder + "board.css", encoding: .utf8)
        #expect(js.hasSuffix(";\n})();\n") && css.hasSuffix("}\n"))
        #expect(BoardPage.script == String(js.dropLast()))
        #expect(BoardPage.style == String(css.dropLast()))
        #expect(Self.elements("script") == [String(js.dropLast())] && Self.elements("style") == [String(css.dropLast())])
        #expect(BoardPage.response.body.count == html.utf8.count)
    }
}

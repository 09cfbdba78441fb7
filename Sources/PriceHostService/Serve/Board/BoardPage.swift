import FoundationEssentials
import PriceHostCore

/// The board `serve` answers `GET /` with: one self-contained page, its style and script
/// inline, nothing loaded from elsewhere. Its script reads `/v1/board` (what to show),
/// `/v1/candles` (the charts, over the range chosen: 15 minutes, 1 hour or 1 day; from a
/// server without candles, `/v1/history`) and `/v1/stream` (live prices), each with
/// `fetch()` so that it can send the token in the `Authorization` header; the token is
/// asked for once, kept in the tab's `sessionStorage`, and never put in a URL. The range
/// alone is kept in `localStorage`.
enum BoardPage {
    /// The page.
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width,initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <link rel="icon" href="data:,">
        <title>pricehost board</title>
        <style>\(style)</style>
        </head>
        <body>
        <header>
        <h1>pricehost board</h1>
        <p id="status" role="status" aria-live="polite">Loading…</p>
        <fieldset id="range">
        <legend>Charts</legend>
        <label><input type="radio" name="range" value="15m"> 15 min</label>
        <label><input type="radio" name="range" value="1h"> 1 hour</label>
        <label><input type="radio" name="range" value="1d"> 1 day</label>
        </fieldset>
        </header>
        <form id="login" hidden>
        <h2>Token</h2>
        <p id="login-why">This server needs its token (serve.token) to show prices.</p>
        <label for="token">Token</label>
        <input id="token" type="password" autocomplete="off" spellcheck="false" required>
        <button type="submit">Use it</button>
        <p class="note">Kept in this tab only (sessionStorage) and sent only in the Authorization header, never in a URL.</p>
        </form>
        <main id="board" aria-label="Prices"></main>
        <footer><button id="forget" type="button" hidden>Forget the token</button></footer>
        <noscript><p>The board needs JavaScript; /v1/prices?asset=BTC answers without it.</p></noscript>
        <script>\(script)</script>
        </body>
        </html>

        """

    /// Only the page's own inline style and script run; it connects to its own server and
    /// nowhere else, cannot be framed, and no form sends anything anywhere.
    static let contentSecurityPolicy = "default-src 'none'; script-src '\(hash(script))'; style-src '\(hash(style))'; "
        + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The answer to `GET /`.
    static let response = ServeResponse(status: 200, headers: [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", contentSecurityPolicy),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ], body: Array(html.utf8))

    /// A CSP source for an inline element whose text is `text`: `sha256-BASE64`.
    static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.digest(of: Array(text.utf8))).base64EncodedString()
    }
}

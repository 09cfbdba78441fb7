extension BoardPage {
    /// The page's style sheet, `board.css` beside this file: light and dark, one column on a
    /// phone, a grid of cards on a wider screen.
    static let style = text(ofEmbedded: PackageResources.board_css)

    /// The page's script: `chart.js` (the charts' drawing) then `board.js`, beside this file, one
    /// inline script. Every text that came from the server goes in with `textContent`, never as
    /// markup; amounts are shown as the server wrote them, and the median, min, max and spread, and
    /// the charts' scale, are worked out on their exact decimal text (BigInt), never in binary
    /// floats. Floats only place the charts' points.
    static let script = text(ofEmbedded: PackageResources.chart_js) + "\n" + text(ofEmbedded: PackageResources.board_js)

    /// A file SwiftPM embedded at build time (`.embedInCode` in Package.swift), as the page inlines
    /// it: without the file's last newline, so that the page and its CSP hashes stay what they were
    /// when the text lived in a Swift string.
    static func text(ofEmbedded bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}

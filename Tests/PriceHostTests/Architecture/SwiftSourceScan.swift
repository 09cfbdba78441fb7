/// What one Swift file declares and names, read from its text by a token scan:
/// no parser, so it is honest about what it sees rather than complete.
///
/// - Comments (line, block and nested block) and the literal text of strings are left out;
///   the code inside a string's interpolation (`\(…)`, `\#(…)` in a raw string) is kept.
/// - A file *declares* the types it names at brace depth 0 (`class`, `struct`, `enum`,
///   `protocol`, `actor`, `typealias`), unless they are `private` or `fileprivate`:
///   nested types are reached through their parent's name, which is declared.
/// - A file *uses* every identifier in its code.
struct SwiftSourceScan: Equatable {
    /// The types this file declares at its top level, visible to other files.
    var declaredTypes: Set<String> = []
    /// Every identifier in the file's code.
    var identifiers: Set<String> = []

    init(_ source: String) {
        let tokens = Self.tokens(of: Self.code(of: source))
        identifiers = Set(tokens.compactMap { $0.isIdentifier ? $0.text : nil })
        var depth = 0
        for (index, token) in tokens.enumerated() {
            switch token.text {
            case "{": depth += 1
            case "}": depth -= 1
            case "class", "struct", "enum", "protocol", "actor", "typealias":
                guard depth == 0, index + 1 < tokens.count, tokens[index + 1].isIdentifier else { continue }
                let modifiers = tokens[..<index].suffix(4).map(\.text)
                if modifiers.contains("private") || modifiers.contains("fileprivate") { continue }
                // `class func`, `class var`: members, not types (at depth 0 only in a malformed file).
                if ["func", "var", "let", "subscript", "init"].contains(tokens[index + 1].text) { continue }
                declaredTypes.insert(tokens[index + 1].text)
            default: continue
            }
        }
    }

    struct Token {
        let text: String
        var isIdentifier: Bool { text.first.map { $0 == "_" || $0.isLetter } ?? false }
    }

    /// The identifiers, and each brace, of `code`; everything else is dropped.
    static func tokens(of code: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        for character in code {
            if character == "_" || character.isLetter || (character.isNumber && !current.isEmpty) {
                current.append(character)
                continue
            }
            if !current.isEmpty { tokens.append(Token(text: current)); current = "" }
            if character == "{" || character == "}" { tokens.append(Token(text: String(character))) }
        }
        if !current.isEmpty { tokens.append(Token(text: current)) }
        return tokens
    }

    /// `source` without its comments and without the literal text of its strings
    /// (each string becomes `""`, with the code of its interpolations kept beside it).
    static func code(of source: String) -> String {
        var reader = Reader(Array(source.unicodeScalars))
        return reader.code(until: nil)
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        func starts(with text: String) -> Bool {
            for (offset, scalar) in text.unicodeScalars.enumerated() where peek(offset) != scalar { return false }
            return true
        }

        /// Code up to the `)` that closes an interpolation (`closing` is `)`), or to the end.
        mutating func code(until closing: Unicode.Scalar?) -> String {
            var out = String.UnicodeScalarView()
            var parentheses = 0
            while let scalar = peek() {
                if starts(with: "//") {
                    while let next = peek(), next != "\n" { index += 1 }
                } else if starts(with: "/*") {
                    skipBlockComment()
                } else if let hashes = stringOpening() {
                    skipString(hashes: hashes, into: &out)
                    out.append(contentsOf: " \"\" ".unicodeScalars)
                } else {
                    if let closing, scalar == closing, parentheses == 0 { index += 1; break }
                    if scalar == "(" { parentheses += 1 }
                    if scalar == ")" { parentheses -= 1 }
                    out.append(scalar)
                    index += 1
                }
            }
            return String(out)
        }

        mutating func skipBlockComment() {
            var depth = 0
            while peek() != nil {
                if starts(with: "/*") { depth += 1; index += 2 } else if starts(with: "*/") {
                    depth -= 1; index += 2
                    if depth == 0 { return }
                } else { index += 1 }
            }
        }

        /// The number of `#` before a string's opening quote here, or `nil` when no string opens here.
        func stringOpening() -> Int? {
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            return peek(hashes) == "\"" ? hashes : nil
        }

        /// Skips one string literal, appending the code of its interpolations to `out`.
        mutating func skipString(hashes: Int, into out: inout String.UnicodeScalarView) {
            index += hashes
            let multiline = starts(with: "\"\"\"")
            let quote = multiline ? "\"\"\"" : "\""
            index += quote.unicodeScalars.count
            let terminator = quote + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while let scalar = peek() {
                if starts(with: terminator) { index += terminator.unicodeScalars.count; return }
                if !multiline, scalar == "\n" { return }
                if starts(with: escape) {
                    index += escape.unicodeScalars.count
                    if peek() == "(" {
                        index += 1
                        out.append(contentsOf: " ".unicodeScalars)
                        out.append(contentsOf: code(until: ")").unicodeScalars)
                        out.append(contentsOf: " ".unicodeScalars)
                    } else {
                        index += 1
                    }
                    continue
                }
                index += 1
            }
        }
    }
}

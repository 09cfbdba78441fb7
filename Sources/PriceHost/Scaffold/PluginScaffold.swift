import Glibc
import PriceHostCore
import ProviderABI

/// A new plugin's files, from the kit's templates with the names filled in,
/// pointing at the kit's header (C) or `ProviderABI` package (Swift).
struct PluginScaffold: Sendable {
    /// The language of the plugin.
    enum Language: String, Sendable, CaseIterable {
        case c, swift
    }

    /// One file to write, relative to the plugin's directory.
    struct File: Sendable, Equatable {
        var path: String
        var contents: String
    }

    /// The provider name, e.g. `my-market`.
    let name: String
    let language: Language
    let kit: PluginKit

    /// `my-market` as a type name: `MyMarket`.
    var typeStem: String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The library the build produces, e.g. `libMyMarketProvider.so`.
    var libraryName: String { "lib\(typeStem)Provider.so" }

    /// Why `name` cannot name a plugin, or `nil`: a provider name that starts with a
    /// letter, since it also names a Swift type and a C file.
    static func problem(withName name: String) -> String? {
        guard ProviderName.isValid(name), let first = name.unicodeScalars.first, ("a"..."z").contains(first),
              !name.hasSuffix("-"), !name.contains("--") else {
            return "'\(name)' is not a plugin name: 1 to 32 lower-case letters, digits or single '-' between them, starting with a letter"
        }
        return nil
    }

    /// The files of the plugin.
    /// - Throws: ``ScaffoldError`` when a template cannot be read or lacks a line filled in here.
    func files() throws(ScaffoldError) -> [File] {
        switch language {
        case .c: try cFiles()
        case .swift: try swiftFiles()
        }
    }

    private func cFiles() throws(ScaffoldError) -> [File] {
        let source = name.replacing("-", with: "_") + "_provider.c"
        let template = try Self.read(kit.templates + "/CProvider/template_provider.c")
        let code = try Self.fill(template, at: kit.templates + "/CProvider/template_provider.c", [
            (" * A pricehost provider in C: the template to copy.", " * The \(name) provider for pricehost, from `pricehost new-plugin`."),
            ("#define PROVIDER_NAME \"template\"", "#define PROVIDER_NAME \"\(name)\""),
            ("{\"providers\": {\"template\":", "{\"providers\": {\"\(name)\":"),
            (" * Build (one command; see PLUGINS.md):\n *   cc -shared -fPIC -fvisibility=hidden -I PRICEHOST/Sources/CProviderABI/include \\\n *      -o libTemplateProvider.so template_provider.c",
             " * Build: make (see the Makefile; PLUGINS.md has the rest)"),
        ])
        let makefile = """
            # Builds \(libraryName) against pricehost's plugin header: run `make`.
            # Then: pricehost check --plugin ./\(libraryName)
            PRICEHOST_INCLUDE ?= \(kit.headerDirectory)
            CFLAGS ?= -O2 -Wall -Wextra

            \(libraryName): \(source)
            \t$(CC) $(CFLAGS) -shared -fPIC -fvisibility=hidden -I '$(PRICEHOST_INCLUDE)' -o $@ \(source)

            clean:
            \trm -f \(libraryName)

            .PHONY: clean

            """
        return [File(path: source, contents: code), File(path: "Makefile", contents: makefile),
                File(path: ".gitignore", contents: "*.so\n")]
    }

    private func swiftFiles() throws(ScaffoldError) -> [File] {
        let type = typeStem + "Provider"
        let packagePath = kit.templates + "/SwiftProvider/Package.swift"
        let manifest = try Self.fill(try Self.read(packagePath), at: packagePath, [
            ("// A pricehost provider in Swift: the template to copy. Point the dependency at\n// your pricehost checkout (a path, or its git URL and a version).",
             "// The \(name) provider for pricehost, from `pricehost new-plugin`. Build: swift build -c release\n// The dependency is the ProviderABI of the pricehost that wrote this."),
            ("path: \"../..\"", "path: \(Self.swiftQuoted(kit.root))"),
            ("TemplateProvider", type),
        ])
        let sourcePath = kit.templates + "/SwiftProvider/Sources/TemplateProvider/TemplateProvider.swift"
        let code = try Self.fill(try Self.read(sourcePath), at: sourcePath, [
            ("TemplateProvider", type),
            ("TemplateFetcher", typeStem + "Fetcher"),
            ("static let name = \"swift-template\"", "static let name = \"\(name)\""),
        ])
        return [File(path: "Package.swift", contents: manifest), File(path: "Sources/\(type)/\(type).swift", contents: code),
                File(path: ".gitignore", contents: ".build/\n")]
    }

    /// `template` with each `(old, new)` replaced everywhere; every `old` must be there.
    static func fill(_ template: String, at path: String, _ replacements: [(String, String)]) throws(ScaffoldError) -> String {
        var text = template
        for (old, new) in replacements {
            guard text.contains(old) else {
                throw ScaffoldError(.templateMismatch, "template \(path) lacks \(JSONValue.quoted(old)); it does not match this pricehost: reinstall")
            }
            text = text.replacing(old, with: new)
        }
        return text
    }

    /// `text` as a Swift string literal.
    static func swiftQuoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// The whole file at `path`, as UTF-8 text.
    static func read(_ path: String) throws(ScaffoldError) -> String {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw ScaffoldError(.fileSystem, "cannot read template \(path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ScaffoldError(.fileSystem, "cannot read template \(path): \(String(cString: strerror(errno)))") }
            guard count > 0, bytes.count < 1 << 20 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

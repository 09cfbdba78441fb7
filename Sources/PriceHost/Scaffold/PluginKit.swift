import Glibc
import PriceHostCore

/// What a plugin author builds against, found relative to the running
/// `pricehost`: the C header, the `ProviderABI` package and the templates.
///
/// In a checkout it is the package root (the binary is under `.build/`); in an
/// install by `scripts/install.sh`, `PREFIX/share/pricehost/sdk`, a package of
/// its own holding `ProviderABI`, `CProviderABI` and `Templates/` in the same
/// layout.
struct PluginKit: Sendable, Equatable {
    /// The root: a Swift package whose `ProviderABI` product a Swift plugin depends on.
    var root: String

    /// The directory holding `pricehost_plugin.h`, for `cc -I`.
    var headerDirectory: String { root + "/Sources/CProviderABI/include" }
    /// The templates `new-plugin` fills in.
    var templates: String { root + "/Templates" }

    /// The files that make a directory a kit.
    static let markers = ["Package.swift", "Sources/CProviderABI/include/pricehost_plugin.h", "Sources/ProviderABI",
                          "Templates/CProvider/template_provider.c", "Templates/SwiftProvider/Package.swift"]

    /// Where an install puts the kit, relative to the directory of the binary.
    static let installedPath = "../share/pricehost/sdk"

    /// The kit beside the binary in `executableDirectory`: the installed one,
    /// else the nearest checkout above it (at most 6 levels up); `nil` when neither.
    static func locate(executableDirectory: String) -> PluginKit? {
        var candidates = [FilePath.absolute(installedPath, relativeTo: executableDirectory)]
        var directory = executableDirectory
        for _ in 0...6 {
            candidates.append(directory)
            guard directory != "/" else { break }
            directory = FilePath.directory(of: directory)
        }
        return candidates.first { candidate in
            markers.allSatisfy { access(candidate + "/" + $0, R_OK) == 0 }
        }.map(PluginKit.init(root:))
    }
}

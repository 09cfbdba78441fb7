import Glibc

/// A C library of the system loaded with `dlopen`, never linked (libsqlite3, libpq): its soname, or the file or
/// soname an environment variable names instead, and its functions looked up by name. Never unloaded, so the
/// function pointers taken from it stay good for the life of the process.
package struct SystemLibrary: @unchecked Sendable {
    // @unchecked: a handle of a library that is never closed.

    /// Which library, and what its errors tell the user.
    package struct Kind: Sendable {
        /// The soname loaded unless ``variable`` says otherwise: `libpq.so.5`.
        package var soname: String
        /// The environment variable naming another file or soname: `PRICEHOST_LIBPQ`.
        package var variable: String
        /// What pricehost needs it for: `the PostgreSQL client library the quote store is kept with`.
        package var purpose: String
        /// How to install it: `Debian and Ubuntu: apt-get install libpq5; Fedora: dnf install libpq`.
        package var install: String
        /// The oldest release that will do: `libpq 12 or later`.
        package var needed: String

        package init(soname: String, variable: String, purpose: String, install: String, needed: String) {
            self.soname = soname
            self.variable = variable
            self.purpose = purpose
            self.install = install
            self.needed = needed
        }

        /// ``variable``'s value when set and not empty, else ``soname``.
        package var chosenName: String {
            getenv(variable).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? soname
        }
    }

    /// Why a library could not be loaded: the line names the library, what it is for, why, and how to install it.
    package struct LoadError: Error, CustomStringConvertible, Sendable {
        /// The file or soname that was tried.
        package var library: String
        /// `dlerror()`, a missing symbol, or a release too old.
        package var reason: String
        let kind: Kind

        package var description: String {
            "cannot load \(library), \(kind.purpose): \(reason); install it (\(kind.install))"
        }
    }

    /// The file or soname loaded.
    package let name: String
    private let kind: Kind
    private let handle: UnsafeMutableRawPointer

    /// Loads `name` (`RTLD_LAZY | RTLD_LOCAL`).
    /// - Throws: ``LoadError`` with `dlerror()`'s words when it cannot be loaded.
    package init(_ name: String, _ kind: Kind) throws(LoadError) {
        _ = dlerror()
        guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
            throw LoadError(library: name, reason: dlerror().map { String(cString: $0) } ?? "dlopen failed", kind: kind)
        }
        self.name = name
        self.kind = kind
        self.handle = handle
    }

    /// The function `symbol` as `type`.
    /// - Throws: ``LoadError`` when the library has none by that name: it is older than ``Kind/needed``.
    package func required<Function>(_ symbol: String, as type: Function.Type) throws(LoadError) -> Function {
        guard let address = dlsym(handle, symbol) else { throw failure("it has no \(symbol) (\(kind.needed) is needed)") }
        return unsafeBitCast(address, to: type)
    }

    /// The error for this library with `reason` (a release too old).
    package func failure(_ reason: String) -> LoadError {
        LoadError(library: name, reason: reason, kind: kind)
    }
}

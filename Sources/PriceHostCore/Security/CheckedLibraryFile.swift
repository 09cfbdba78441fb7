import Glibc

/// A shared library file opened once, checked through that descriptor, and
/// loaded through `/proc/self/fd/N`, so that what was checked is what is
/// loaded: no window between a check of the path and `dlopen` of the path.
/// Both plugin files and the HTTP transport library are loaded this way.
struct CheckedLibraryFile {
    /// The file as named (links resolved by the caller where it matters).
    package let path: String
    /// The open descriptor; kept open for the life of the process once loaded.
    package let descriptor: Int32
    /// `fstat` of the descriptor.
    package let info: stat

    /// Opens `path` and checks it is a regular file.
    /// - Returns: the open file, or why it cannot be used (the descriptor is closed then).
    package static func open(_ path: String) -> Result<CheckedLibraryFile, Refusal> {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Refusal("cannot open: \(String(cString: strerror(errno)))")) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)
            return .failure(Refusal("not a regular file"))
        }
        return .success(CheckedLibraryFile(path: path, descriptor: descriptor, info: info))
    }

    /// Why the file must not be loaded: others could replace it (unless allowed,
    /// with a warning), or it is no ELF shared library for this machine.
    package func refusal(allowInsecure: Bool, diagnostics: Diagnostics) -> Refusal? {
        if let refusal = PluginFileSecurity.refusal(file: path, fileInfo: info, allowInsecure: allowInsecure, diagnostics: diagnostics) {
            return Refusal(refusal)
        }
        if let problem = ELFHeader.check(FileDescriptorReader.read(descriptor, upTo: 64)) { return Refusal(problem) }
        return nil
    }

    /// `dlopen`s the open file (`RTLD_NOW | RTLD_LOCAL`). The handle is never
    /// `dlclose`d, and the descriptor must then stay open: dlopen knows the
    /// library as `/proc/self/fd/N`, and glibc would take a later library under
    /// a reused N for this one.
    package func load() -> Result<UnsafeMutableRawPointer, Refusal> {
        _ = dlerror()
        guard let handle = dlopen("/proc/self/fd/\(descriptor)", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            return .failure(Refusal("dlopen failed: \(reason.replacing("/proc/self/fd/\(descriptor)", with: path))"))
        }
        return .success(handle)
    }

    /// Closes the descriptor of a file that was not loaded.
    package func close() { Glibc.close(descriptor) }

    /// Why a library file was refused, in one line.
    package struct Refusal: Error, Equatable {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
    }
}

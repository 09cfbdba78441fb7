import Glibc

/// The first bytes of an ELF file, checked before `dlopen` because glibc
/// reports a library for another architecture as "No such file or directory".
enum ELFHeader {
    /// The `e_machine` values this host can name.
    static let machineNames: [UInt16: String] = [
        3: "x86 (32-bit)", 8: "MIPS", 20: "PowerPC", 21: "PowerPC64", 22: "s390x",
        40: "ARM (32-bit)", 62: "x86_64", 183: "aarch64", 243: "RISC-V", 258: "LoongArch",
    ]

    /// The `e_machine` of the running executable, so every architecture Linux runs on is judged right.
    static let hostMachine: UInt16 = {
        #if arch(x86_64)
        let compiled: UInt16 = 62
        #elseif arch(arm64)
        let compiled: UInt16 = 183
        #else
        let compiled: UInt16 = 0
        #endif
        guard let bytes = readPrefix(of: "/proc/self/exe"), bytes.count >= 20, bytes[5] == 1 || bytes[5] == 2 else { return compiled }
        return bytes[5] == 1 ? UInt16(bytes[18]) | UInt16(bytes[19]) << 8 : UInt16(bytes[18]) << 8 | UInt16(bytes[19])
    }()

    static func machineName(_ machine: UInt16) -> String {
        machineNames[machine] ?? "machine \(machine)"
    }

    /// Judges the first bytes of a file.
    /// - Returns: why the file is not a shared library this host can load, or `nil` when it is.
    package static func check(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 4, bytes[0] == 0x7F, bytes[1] == UInt8(ascii: "E"), bytes[2] == UInt8(ascii: "L"), bytes[3] == UInt8(ascii: "F") else {
            return "not an ELF shared library (the file does not start with the ELF magic number)"
        }
        guard bytes.count >= 20 else { return "truncated ELF header (\(bytes.count) bytes)" }
        let is64Bit = bytes[4] == 2
        let isLittleEndian = bytes[5] == 1
        func half(_ offset: Int) -> UInt16 {
            isLittleEndian ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
                           : UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }
        let type = half(16)
        let machine = half(18)
        if machine != hostMachine {
            return "ELF for \(machineName(machine)), but this pricehost runs on \(machineName(hostMachine)); build the plugin for \(machineName(hostMachine))"
        }
        guard is64Bit else { return "32-bit ELF; this pricehost loads 64-bit plugins" }
        guard isLittleEndian else { return "big-endian ELF; this host is little-endian" }
        guard type == 3 else {
            let kind = type == 2 ? "an executable" : type == 1 ? "an object file (.o)" : "ELF type \(type)"
            return "\(kind), not a shared library; link it with -shared"
        }
        return nil
    }

    /// Reads up to 64 bytes from the start of `path`.
    static func readPrefix(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 64) }
        guard count >= 0 else { return nil }
        return Array(buffer.prefix(count))
    }
}

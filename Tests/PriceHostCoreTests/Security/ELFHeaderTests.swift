@testable import PriceHostCore
import Testing

struct ELFHeaderTests {
    static func header(class elfClass: UInt8 = 2, data: UInt8 = 1, type: UInt16 = 3, machine: UInt16 = ELFHeader.hostMachine) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes[0...3] = [0x7F, 0x45, 0x4C, 0x46]
        bytes[4] = elfClass
        bytes[5] = data
        if data == 2 {
            bytes[16] = UInt8(type >> 8); bytes[17] = UInt8(type & 0xFF)
            bytes[18] = UInt8(machine >> 8); bytes[19] = UInt8(machine & 0xFF)
        } else {
            bytes[16] = UInt8(type & 0xFF); bytes[17] = UInt8(type >> 8)
            bytes[18] = UInt8(machine & 0xFF); bytes[19] = UInt8(machine >> 8)
        }
        return bytes
    }

    @Test func hostSharedLibraryPasses() {
        #expect(ELFHeader.check(Self.header(machine: ELFHeader.hostMachine)) == nil)
    }

    @Test func otherMachinesAreNamed() {
        let host = ELFHeader.machineName(ELFHeader.hostMachine)
        let other: UInt16 = ELFHeader.hostMachine == 183 ? 62 : 183
        #expect(ELFHeader.check(Self.header(machine: other))
            == "ELF for \(ELFHeader.machineName(other)), but this pricehost runs on \(host); build the plugin for \(host)")
        #expect(ELFHeader.check(Self.header(machine: 4242)) == "ELF for machine 4242, but this pricehost runs on \(host); build the plugin for \(host)")
    }

    @Test func wrongClassEndiannessAndTypeAreNamed() {
        #expect(ELFHeader.check(Self.header(class: 1)) == "32-bit ELF; this pricehost loads 64-bit plugins")
        #expect(ELFHeader.check(Self.header(data: 2)) == "big-endian ELF; this host is little-endian")
        #expect(ELFHeader.check(Self.header(type: 1)) == "an object file (.o), not a shared library; link it with -shared")
        #expect(ELFHeader.check(Self.header(type: 2)) == "an executable, not a shared library; link it with -shared")
    }

    @Test func nonELFAndTruncatedFilesAreNamed() {
        #expect(ELFHeader.check(Array("#!/bin/sh\n".utf8)) == "not an ELF shared library (the file does not start with the ELF magic number)")
        #expect(ELFHeader.check([]) == "not an ELF shared library (the file does not start with the ELF magic number)")
        #expect(ELFHeader.check([0x7F, 0x45, 0x4C, 0x46, 2]) == "truncated ELF header (5 bytes)")
    }
}

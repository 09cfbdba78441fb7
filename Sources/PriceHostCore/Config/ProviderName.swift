/// The rule for provider names: what plugins call themselves and `--provider` takes.
package enum ProviderName {
    package static let rule = "provider names are 1 to 32 lower-case letters, digits or '-'"

    package static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return (1...32).contains(bytes.count) && bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }
}

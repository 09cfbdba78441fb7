/// Reads the server's answer to the handshake as it arrives: waits for the
/// whole head (up to the empty line), checks it, and hands back the bytes
/// after it, which are already the frame stream.
///
/// The head is capped (16 KiB by default): a server that sends more without
/// ending it is refused rather than buffered.
package struct WebSocketHandshakeReader: Sendable {
    /// What reading has come to.
    package enum Progress: Equatable, Sendable {
        /// The head is not complete: read more and call ``WebSocketHandshakeReader/read(_:)`` again.
        case needMoreBytes
        /// The server accepted the upgrade.
        case upgraded(WebSocketHandshake.Upgrade)
    }

    /// The default cap on the response head: 16 KiB.
    package static let defaultMaximumHeadSize = 16 * 1024

    /// The handshake whose answer this reads.
    package let handshake: WebSocketHandshake
    /// The largest head accepted, including its empty line.
    package let maximumHeadSize: Int
    private var buffer: [UInt8] = []
    /// Where the search for the empty line resumes, so a head that comes a byte at a time is scanned once.
    private var scanned = 0

    /// A reader for the answer to `handshake`.
    package init(handshake: WebSocketHandshake, maximumHeadSize: Int = Self.defaultMaximumHeadSize) {
        self.handshake = handshake
        self.maximumHeadSize = maximumHeadSize
    }

    /// The bytes held while the head is incomplete.
    package var bufferedByteCount: Int { buffer.count }

    /// Adds `bytes` read from the connection.
    /// - Throws: ``WebSocketError/Code/handshakeMalformed`` (a head that cannot be read, or is over the cap)
    ///   or ``WebSocketError/Code/handshakeRefused`` (a head that is not the upgrade asked for).
    package mutating func read(_ bytes: some Collection<UInt8>) throws(WebSocketError) -> Progress {
        buffer.append(contentsOf: bytes)
        var index = max(scanned, 3)
        let limit = min(buffer.count, maximumHeadSize)
        while index < limit {
            if buffer[index] == UInt8(ascii: "\n"), buffer[index - 1] == UInt8(ascii: "\r"),
               buffer[index - 2] == UInt8(ascii: "\n"), buffer[index - 3] == UInt8(ascii: "\r") {
                let head = try WebSocketResponseHead.parse(buffer[...index], url: handshake.url)
                let selected = try handshake.validate(head)
                return .upgraded(.init(selectedProtocol: selected, head: head, remainder: Array(buffer[(index + 1)...])))
            }
            index += 1
        }
        scanned = index
        guard buffer.count < maximumHeadSize else {
            throw .handshakeMalformed(handshake.url, "the response head is over \(maximumHeadSize) bytes without ending")
        }
        return .needMoreBytes
    }
}

/// A close frame's status code (RFC 6455 §7.4).
package struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it is on the wire.
    package let rawValue: UInt16

    /// The code `rawValue`, whether or not it may be sent.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection is fulfilled.
    package static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a page left).
    package static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    package static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    package static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: reported when a close frame had no code; never sent.
    package static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: reported when the connection ended with no close frame; never sent.
    package static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a message's data does not match its type (text that is not UTF-8).
    package static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message violates the endpoint's policy.
    package static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too big to process.
    package static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected an extension the server did not negotiate.
    package static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    package static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1012: the service is restarting (IANA registry).
    package static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: try again later (IANA registry).
    package static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1014: a gateway's upstream answered badly (IANA registry).
    package static let badGateway = WebSocketCloseCode(rawValue: 1014)

    /// Whether the code may appear in a close frame: 1000-1003, 1007-1014, 3000-4999.
    /// 1004 is reserved, 1005, 1006 and 1015 are for reporting only, and the
    /// rest of 0-2999 is unassigned.
    package var isAllowedOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    package var description: String { String(rawValue) }
}

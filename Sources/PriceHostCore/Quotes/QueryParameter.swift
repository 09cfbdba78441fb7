import ProviderABI

/// The checks of an HTTP query's parameters that `/v1/prices`, `/v1/stream`, `/v1/history` and the quote store's
/// routes share, with their words: one place, so that a bad asset or provider gets the same answer from each.
package enum QueryParameter {
    /// What is wrong with a parameter, in words for the client.
    package struct Problem: Error, Equatable, Sendable {
        package var message: String

        package init(message: String) {
            self.message = message
        }
    }

    /// `name` is one `allowed` does not hold.
    package static func unknown(_ name: String, allowed: [String]) -> Problem {
        Problem(message: "unknown parameter \(JSONValue.quoted(name)); this route takes \(allowed.joined(separator: ", "))")
    }

    /// `name` came a second time.
    package static func repeated(_ name: String) -> Problem {
        Problem(message: "parameter \(name) is given twice")
    }

    /// An asset code, normalized (upper case).
    package static func asset(_ text: String) throws(Problem) -> String {
        guard let code = AssetCode.normalized(text) else {
            throw Problem(message: "asset \(JSONValue.quoted(text)) is not an asset code (2 to 10 letters or digits)")
        }
        return code
    }

    /// A currency code, normalized (upper case).
    package static func currency(_ text: String) throws(Problem) -> String {
        guard let code = AssetCode.normalized(text) else {
            throw Problem(message: "currency \(JSONValue.quoted(text)) is not a currency code (2 to 10 letters or digits)")
        }
        return code
    }

    /// A provider's name, as ``ProviderName`` has them.
    package static func provider(_ text: String) throws(Problem) -> String {
        guard ProviderName.isValid(text) else {
            throw Problem(message: "provider \(JSONValue.quoted(text)) is not a provider name (\(ProviderName.rule))")
        }
        return text
    }

    /// `aggregate`, which takes `median` alone.
    package static func aggregate(_ text: String) throws(Problem) {
        guard text == "median" else { throw Problem(message: "aggregate takes median, not \(JSONValue.quoted(text))") }
    }
}

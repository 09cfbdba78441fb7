import ProviderABI
import Testing

struct ProviderErrorTests {
    @Test func descriptionIsTheMessage() {
        let error = ProviderError(.notFound, "no price for BTC-EUR in /srv/prices.json")
        #expect(error.description == "no price for BTC-EUR in /srv/prices.json")
        #expect("\(error)" == "no price for BTC-EUR in /srv/prices.json")
    }

    @Test func codesCrossTheBoundaryAsSnakeCaseText() {
        #expect(ProviderError.Code.notFound.rawValue == "not_found")
        #expect(ProviderError.Code.invalidRequest.rawValue == "invalid_request")
        #expect(ProviderError.Code.invalidResponse.rawValue == "invalid_response")
        #expect(ProviderError.Code.invalidSettings.rawValue == "invalid_settings")
        #expect(ProviderError.Code.unavailable.rawValue == "unavailable")
        #expect(ProviderError.Code.timeout.rawValue == "timeout")
        #expect(ProviderError.Code.failed.rawValue == "failed")
        #expect(ProviderError.Code.notFound.description == "not_found")
    }

    @Test func aCodeMadeFromItsTextEqualsTheConstant() {
        #expect(ProviderError.Code(rawValue: "timeout") == .timeout)
        #expect(ProviderError(.timeout, "x") == ProviderError(ProviderError.Code(rawValue: "timeout"), "x"))
        #expect(ProviderError(.timeout, "x") != ProviderError(.failed, "x"))
    }
}

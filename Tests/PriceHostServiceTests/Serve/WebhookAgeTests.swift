import Foundation
@testable import PriceHostService
import Testing

/// A webhook's body says how old its price is when it is sent: a retry, or a heartbeat reposting an unchanged price.
struct WebhookAgeTests {
    @Test func theAgeIsRewrittenAsOfTheAttemptAndNothingElseChanges() throws {
        let body = Array(#"{"asset":"BTC","currency":"USD","amount":"100.5","provider":"venue","timestamp":"2025-11-20T12:00:00Z","status":"live","ageMs":12}"#.utf8)
        let later = try #require(ISO8601DateFormatter().date(from: "2025-11-20T13:00:00Z"))
        #expect(String(decoding: WebhookDelivery.aged(body, at: later), as: UTF8.self)
            == #"{"asset":"BTC","currency":"USD","amount":"100.5","provider":"venue","timestamp":"2025-11-20T12:00:00Z","status":"live","ageMs":3600000}"#)
    }

    @Test func aBodyWithoutAnAgeIsSentAsItIs() {
        let body = Array(#"{"asset":"BTC","currency":"USD","amount":"100.5","provider":"venue","timestamp":"2025-11-20T12:00:00Z"}"#.utf8)
        #expect(WebhookDelivery.aged(body, at: Date()) == body)
    }
}

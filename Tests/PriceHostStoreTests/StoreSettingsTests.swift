import Foundation
@testable import PriceHostCore
import PriceHostStore
import PriceHostTesting
import Testing

/// The `store` section: which engine its URL names, and what a bad one says.
struct StoreSettingsTests {
    static func settings(_ url: String, environment: [String: String] = [:]) throws -> StoreSettings? {
        let json = #"{"plugins": [], "store": {"url": "\#(url)"}}"#
        let config = try ConfigParser.parse(Array(json.utf8), path: "/etc/pricehost/plugins.json", environment: environment, sections: [StoreSection.self])
        return config.storeSettings(environment: environment)
    }

    @Test func aPostgresURLIsTakenWithItsVariablesAndIsNotAPath() throws {
        let settings = try #require(try Self.settings("postgresql://app:${DB_PASSWORD}@db.internal:5433/quotes?sslmode=require",
                                                      environment: ["DB_PASSWORD": "s3cret-word"]))
        guard case .postgres(let url) = settings.location else {
            Issue.record("the store is \(settings.location)")
            return
        }
        #expect(url == (try PostgresURL("postgresql://app:s3cret-word@db.internal:5433/quotes?sslmode=require")))
        #expect(settings.location.description == "postgres://app@db.internal:5433/quotes")
        #expect(!"\(settings)".contains("s3cret-word"))
    }

    @Test func onlyAnSQLitePathIsRelativeToTheConfigFile() throws {
        #expect(try Self.settings("sqlite:quotes.db")?.location == .sqlite("/etc/pricehost/quotes.db"))
        #expect(try Self.settings("sqlite:///var/lib/pricehost/quotes.db")?.location == .sqlite("/var/lib/pricehost/quotes.db"))
    }

    @Test func theDefaultRawRetentionIsNeverLongerThanTheRetention() throws {
        func retention(_ store: String) throws -> (Int, Int)? {
            let json = #"{"plugins": [], "store": \#(store)}"#
            let config = try ConfigParser.parse(Array(json.utf8), path: "/etc/pricehost/plugins.json", environment: [:], sections: [StoreSection.self])
            return config.storeSettings(environment: ["HOME": "/home/ann"]).map { ($0.retentionDays, $0.rawRetentionDays) }
        }
        #expect(try retention(#"{"retentionDays": 5}"#) ?? (0, 0) == (5, 5))
        #expect(try retention(#"{"retentionDays": 30}"#) ?? (0, 0) == (30, 7))
        #expect(try retention(#"{"retentionDays": 5, "rawRetentionDays": 2}"#) ?? (0, 0) == (5, 2))
        #expect(throws: ConfigError.self) { try retention(#"{"retentionDays": 5, "rawRetentionDays": 6}"#) }
    }

    @Test func anotherSchemeNamesBothThatAreTaken() {
        #expect {
            try Self.settings("mysql://root:hunter22@db/quotes")
        } throws: { error in
            let text = "\(error)"
            return text.contains("expected sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE, not a \"mysql\" URL") && !text.contains("hunter22")
        }
    }
}

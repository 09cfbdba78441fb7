@testable import PriceHostService
import Testing

/// `shared.redis`: what is a Redis URL, and the words for what is not.
struct RedisURLTests {
    @Test func theFullFormIsRead() throws {
        let url = try RedisURL(parsing: "redis://:s%40cret@127.0.0.1:6380/2")
        #expect(url == RedisURL(host: "127.0.0.1", port: 6380, database: 2, user: nil, password: "s@cret"))
        #expect(url.description == "redis://:***@127.0.0.1:6380/2")
        #expect(url.address == "127.0.0.1:6380")
    }

    @Test func portAndDatabaseHaveDefaults() throws {
        #expect(try RedisURL(parsing: "redis://localhost") == RedisURL(host: "localhost"))
        #expect(try RedisURL(parsing: "redis://127.0.0.1/") == RedisURL(host: "127.0.0.1"))
        #expect(try RedisURL(parsing: "redis://10.0.0.5:7000") == RedisURL(host: "10.0.0.5", port: 7000))
    }

    @Test func anACLUserIsKept() throws {
        let url = try RedisURL(parsing: "redis://pricehost:pw@redis.internal:6379/0")
        #expect(url.user == "pricehost" && url.password == "pw" && url.host == "redis.internal")
        #expect(url.description == "redis://pricehost:***@redis.internal:6379/0")
    }

    @Test(arguments: [
        ("http://127.0.0.1:6379", "expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"),
        ("rediss://127.0.0.1", "rediss:// (TLS) is not supported; use redis:// to a Redis on this machine or a private network"),
        ("redis://", "no host; expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"),
        ("redis://127.0.0.1:0", "the port must be a number from 1 to 65535, found \"0\""),
        ("redis://127.0.0.1:70000", "the port must be a number from 1 to 65535, found \"70000\""),
        ("redis://127.0.0.1:63a9", "the port must be a number from 1 to 65535, found \"63a9\""),
        ("redis://127.0.0.1/x", "the database after / must be a number from 0 to 65535, found \"x\""),
        ("redis://127.0.0.1/-1", "the database after / must be a number from 0 to 65535, found \"-1\""),
        ("redis://[::1]:6379", "the host must be a name or an IPv4 address (letters, digits, '.', '-'), found \"[::1]\""),
        ("redis://secret@127.0.0.1", "the part before @ must be :password or user:password; expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"),
        ("redis://:@127.0.0.1", "the password after : is empty; remove the credentials to connect without one"),
        ("redis://:a%zz@127.0.0.1", "bad percent-encoding in the credentials (use %XX, e.g. %40 for @)"),
        ("redis://127.0.0.1?db=1", "query and fragment are not supported; expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"),
        ("redis://ho st:6379", "the host must be a name or an IPv4 address (letters, digits, '.', '-'), found \"ho st\""),
    ])
    func badURLsSayWhatIsWrong(text: String, message: String) {
        #expect(throws: RedisURL.ParseError(description: message)) { try RedisURL(parsing: text) }
    }

    @Test func theErrorNeverQuotesThePassword() {
        for text in ["redis://:hunter2@127.0.0.1:99999", "redis://:hunter2@127.0.0.1/db", "redis://:hunter2@ho st"] {
            do {
                _ = try RedisURL(parsing: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(!error.description.contains("hunter2"), "\(error)")
            }
        }
    }
}

import Injection
import Testing

// The seeds' example: a fetcher that depends on networking, and a test that swaps the
// networking for a simulated one through a child container.

protocol Networking: Sendable {
    func get(_ url: String) throws -> String
}

struct NetworkingFailure: Error, CustomStringConvertible {
    let description: String
}

/// Stands in for real HTTP: answers from a fixed table, the way a live API would.
final class HTTPNetworking: Networking {
    func get(_ url: String) throws -> String {
        guard url == "https://api.coinbase.com/v2/prices/BTC-USD/spot" else {
            throw NetworkingFailure(description: "404 for \(url)")
        }
        return "64000.00"
    }
}

final class SimulatedNetworking: Networking {
    let answer: String

    init(answer: String) {
        self.answer = answer
    }

    func get(_ url: String) throws -> String {
        answer
    }
}

final class BitcoinPriceFetcher: PriceFetcher {
    let networking: any Networking
    let source = "coinbase/BTC"

    init(networking: any Networking) {
        self.networking = networking
    }

    func price() throws -> String {
        try networking.get("https://api.coinbase.com/v2/prices/BTC-USD/spot")
    }
}

struct SeedExampleTests {
    private func production() -> Container {
        let container = Container()
        container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
        container.register(BitcoinPriceFetcher.self) { r in
            BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
        }
        .implements(PriceFetcher.self, name: "coinbase/BTC")
        return container
    }

    @Test
    func fetcherFromTheParentUsesRealNetworking() throws {
        let fetcher = try production().resolve(BitcoinPriceFetcher.self)

        #expect(fetcher.networking is HTTPNetworking)
        #expect(try fetcher.price() == "64000.00")
    }

    @Test
    func childContainerSwapsInSimulatedNetworkingWithoutTouchingTheParent() throws {
        let parent = production()
        let test = Container(parent: parent)
        test.register(Networking.self) { _ in SimulatedNetworking(answer: "1.00") }

        let simulated = try test.resolve(BitcoinPriceFetcher.self)
        let real = try parent.resolve(BitcoinPriceFetcher.self)
        let byName = try test.resolve(PriceFetcher.self, name: "coinbase/BTC")

        #expect(try simulated.price() == "1.00")
        #expect(simulated.networking is SimulatedNetworking)
        #expect(try real.price() == "64000.00")
        #expect(real.networking is HTTPNetworking)
        #expect((byName as? BitcoinPriceFetcher)?.networking is SimulatedNetworking)
    }
}

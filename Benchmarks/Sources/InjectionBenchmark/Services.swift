/// Services the benchmark resolves: small final classes, as most real services are.
final class Leaf: Sendable {
    init() {}
}

protocol PriceSource: Sendable {
    var symbol: String { get }
}

final class NamedSource: PriceSource {
    let symbol: String

    init(symbol: String) {
        self.symbol = symbol
    }
}

final class Level3: Sendable {
    let leaf: Leaf

    init(leaf: Leaf) {
        self.leaf = leaf
    }
}

final class Level2: Sendable {
    let next: Level3

    init(next: Level3) {
        self.next = next
    }
}

final class Level1: Sendable {
    let next: Level2

    init(next: Level2) {
        self.next = next
    }
}

import Injection
import Testing

private struct FetchersAssembly: Assembly {
    let loaded: Recorder<String>

    func assemble(container: Container) {
        container.register(PriceFetcher.self) { r in StubFetcher(source: "via \(try r.resolve(Plain.self).id)") }
    }

    func loaded(resolver: any Resolver) {
        loaded.append((try? resolver.resolve(PriceFetcher.self).source) ?? "failed")
    }
}

private struct PlainAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Plain.self) { _ in Plain(id: 7) }
    }
}

/// Swinject's `AssemblerTests`.
struct AssemblerTests {
    @Test
    func assembliesMayDependOnEachOtherInAnyOrderAndLoadedRunsAfterAll() throws {
        let loaded = Recorder<String>()
        let assembler = Assembler([FetchersAssembly(loaded: loaded), PlainAssembly()])

        #expect(try assembler.resolver.resolve(PriceFetcher.self).source == "via 7")
        #expect(loaded.values == ["via 7"])
    }

    @Test
    func assembliesAppliedOneByOne() throws {
        let loaded = Recorder<String>()
        let assembler = Assembler()
        assembler.apply(assembly: PlainAssembly())
        assembler.apply(assembly: FetchersAssembly(loaded: loaded))

        #expect(loaded.values == ["via 7"])
        #expect(try assembler.resolver.resolve(Plain.self) == Plain(id: 7))
    }

    @Test
    func childAssemblerSeesItsParentAndKeepsItsDefaultScopeButGivesNothingBack() throws {
        let parent = Assembler([PlainAssembly()], container: Container(defaultScope: .singleton))
        let child = Assembler([FetchersAssembly(loaded: Recorder())], parent: parent)

        #expect(try child.resolver.resolve(PriceFetcher.self).source == "via 7")
        #expect(child.container.defaultScope == .singleton)
        #expect(try parent.container.resolve(PriceFetcher?.self) == nil)
    }
}

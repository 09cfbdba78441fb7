/// Runs the chosen cases in order, then the summary of every target.
enum Benchmark {
    /// The exit status: 0 when every case ran (whatever their results), 1 when one could not.
    static func run(_ options: Options) -> Int32 {
        var scratch: ScratchDirectory?
        defer { scratch?.remove() }
        do {
            let locations = try Locations.find(repository: options.repo, for: options.cases)
            let made = try ScratchDirectory()
            scratch = made
            let interruptSources = Interrupts.install(removing: made)
            defer { interruptSources.forEach { $0.cancel() } }
            let context = BenchmarkContext(options: options, locations: locations, scratch: made)
            RunHeader.print(context)
            Report.flush()
            var outcomes: [TargetOutcome] = []
            for item in options.cases {
                outcomes += try run(item, context)
                Report.flush()
            }
            Report.summary(outcomes)
            Report.flush()
            return 0
        } catch {
            if Interrupts.wereReceived { Interrupts.waitForHandler() }
            Report.flush()
            Report.progress("\(error)")
            return 1
        }
    }

    private static func run(_ item: Options.Case, _ context: BenchmarkContext) throws -> [TargetOutcome] {
        switch item {
        case .startup: try StartupCase.run(context)
        case .plugins: try PluginsCase.run(context)
        case .container: try ContainerCase.run(context)
        case .network: try NetworkCase.run(context)
        case .concurrency: try ConcurrencyCase.run(context)
        case .memory: try MemoryCase.run(context)
        case .serve: try ServeCase.run(context)
        case .fleet: try FleetCase.run(context)
        case .stream: try StreamCase.run(context)
        case .streamFleet: try StreamFleetCase.run(context)
        case .store: try StoreCase.run(context)
        case .storePostgres: try StorePostgresCase.run(context)
        case .storeStream: try StoreCase.runStream(context)
        case .storeStreamControl: try StoreCase.runStreamControl(context)
        }
    }
}

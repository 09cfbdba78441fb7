import CProviderABI
import Glibc
import ProviderABI

extension PluginLoader {
    /// Checks and loads one opened plugin file: its owner and mode, its ELF header,
    /// its pin; then `dlopen`, the entry call and the descriptor.
    func loadLibrary(_ file: CheckedLibraryFile, pin: (sha256: String, keyPath: String)?,
                     settings: [String: String], configDirectory: String,
                     opened: inout Bool) -> Result<LoadedPlugin, PluginFailure> {
        let path = file.path
        func fail(_ reason: String) -> Result<LoadedPlugin, PluginFailure> {
            .failure(PluginFailure(path: path, reason: reason))
        }
        if let refusal = file.refusal(allowInsecure: options.allowInsecure, diagnostics: diagnostics) { return fail(refusal.reason) }

        var sha256: String?
        if pin != nil || options.computeHashes {
            switch PluginPin.hash(file.descriptor, checking: pin) {
            case .success(let digest): sha256 = digest
            case .failure(let refusal): return fail(refusal.reason)
            }
        }

        // The open file, not the path: what was checked and hashed is what is loaded.
        let handle: UnsafeMutableRawPointer
        switch file.load() {
        case .success(let loaded): handle = loaded
        case .failure(let refusal): return fail(refusal.reason)
        }
        opened = true
        // The handle is kept (never dlclose'd) for the life of the process.
        guard let symbol = dlsym(handle, PRICEHOST_PLUGIN_ENTRY_SYMBOL) else {
            for major in 2...9 where dlsym(handle, "pricehost_plugin_entry_v\(major)") != nil {
                return fail("built for plugin ABI \(major) (exports pricehost_plugin_entry_v\(major)); this pricehost speaks ABI \(PRICEHOST_ABI_MAJOR); upgrade pricehost or rebuild the plugin")
            }
            return fail("no \(PRICEHOST_PLUGIN_ENTRY_SYMBOL) symbol: not a pricehost plugin, or the entry is not exported (in C, give it default visibility)")
        }
        let entry = unsafeBitCast(symbol, to: ph_plugin_entry_v1.self)
        let context = PluginHostContext(pluginPath: path, settingsText: settings, settingsOverride: options.settingsOverride,
                                        diagnostics: diagnostics, httpClients: httpClients)
        let fetchTimeout = options.fetchTimeout
        let table = context.makeTable(configDirectory: configDirectory)
        let (returned, registered, messages) = context.withEntryCall { entry(table) }
        guard let descriptor = returned else {
            // The plugin's own last word is the reason: one line, not its log and ours.
            let reason = messages.last { $0.level >= .warning }?.message ?? "no reason given"
            var failure = PluginFailure(path: path, reason: "declined to load (its entry returned NULL): \(reason)")
            failure.declined = true
            return .failure(failure)
        }
        let result = DescriptorReader.read(descriptor, registered: registered, path: path, fetchTimeout: fetchTimeout,
                                           isWaitingOnHost: { [context] in context.hasHTTPInFlight }, diagnostics: diagnostics)
        switch result {
        case .success(var plugin):
            plugin.sha256 = sha256
            context.setProvider(plugin.name)
            for message in messages { diagnostics.log(message.level, "\(FilePath.fileName(of: path)): \(message.message)") }
            return .success(plugin)
        case .failure(let problem):
            return .failure(PluginFailure(path: path, provider: problem.provider, reason: problem.reason))
        }
    }
}

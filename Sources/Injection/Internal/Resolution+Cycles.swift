extension Resolution {
    /// Whether `entry` is being made by this resolution or one that waits for it.
    func chainState(of entry: any ServiceEntry) -> ChainState {
        var resolution: Resolution? = self
        while let current = resolution {
            let state = current.state(of: entry)
            if case .absent = state {
                resolution = current.parent
                continue
            }
            return state
        }
        return .absent
    }

    /// The error for asking for `entry` while it is being made, naming the whole path from
    /// the top-level resolve.
    func cycle(closingWith entry: any ServiceEntry) -> ResolutionError {
        var path: [String] = []
        var resolution: Resolution? = self
        while let current = resolution {
            path.insert(contentsOf: current.activePath(), at: 0)
            resolution = current.parent
        }
        path.append(entry.pathName)
        return ResolutionError.dependencyCycle(path: path)
    }
}

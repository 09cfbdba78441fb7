extension Resolution {
    /// True when `entry` is being made by this resolution or one that waits for it.
    func isInProgress(_ entry: any ServiceEntry) -> Bool {
        var resolution: Resolution? = self
        while let current = resolution {
            if current.isMaking(entry) {
                return true
            }
            resolution = current.parent
        }
        return false
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

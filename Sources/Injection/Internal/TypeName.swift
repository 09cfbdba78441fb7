/// The name a user wrote for `type`: "PriceFetcher" for `(any PriceFetcher).self`.
func typeName(_ type: Any.Type) -> String {
    let name = String(describing: type)
    return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
}

/// How a registration reads in messages: "PriceFetcher" or "PriceFetcher named 'file'".
func registrationName(typeName: String, name: String?) -> String {
    name.map { "\(typeName) named '\($0)'" } ?? typeName
}

/// How a registration reads in a dependency path: "PriceFetcher" or "PriceFetcher(named 'file')".
func pathName(typeName: String, name: String?) -> String {
    name.map { "\(typeName)(named '\($0)')" } ?? typeName
}

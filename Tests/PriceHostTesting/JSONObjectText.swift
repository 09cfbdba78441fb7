/// The text of a JSON object built from members written as JSON text, some of them
/// changed: how reader tests vary one field of a venue's documented message at a time.
public enum JSONObjectText {
    /// `{"a":1,"b":"x"}` from `[("a", "1"), ("b", #""x""#)]`. Each of `changes` replaces its
    /// member's value text in place, or is added after the others (in key order) when new;
    /// a `nil` value removes the member. `spaced` writes `", "` and `": "`, as Bitstamp does.
    public static func make(_ members: [(key: String, value: String)], changing changes: [String: String?] = [:],
                            spaced: Bool = false) -> String {
        var members = members
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
            let index = members.firstIndex { $0.key == key }
            switch (index, value) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
        let colon = spaced ? ": " : ":", comma = spaced ? ", " : ","
        return "{" + members.map { "\"\($0.key)\"\(colon)\($0.value)" }.joined(separator: comma) + "}"
    }
}

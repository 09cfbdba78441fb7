/// The output format of data on stdout (`--format`), and of the service's answers.
package enum OutputFormat: String, Sendable, CaseIterable {
    case text, json, csv
}

import Foundation
import Glibc

/// One row of a case's table. Empty cells stay blank.
struct Row: Sendable {
    var what: String
    var median = ""
    var spread = ""
    var ratio = ""
    var target = ""
    var verdict = ""

    /// A row for timed runs: median and the middle half (p25-p75) of `samples`, in ms.
    static func timed(_ what: String, _ samples: Samples) -> Row {
        Row(what: what, median: Report.milliseconds(samples.median),
            spread: Report.milliseconds(samples.low, unit: false) + "-" + Report.milliseconds(samples.high))
    }
}

/// A target of issue 8 and how this run did against it.
struct TargetOutcome: Sendable {
    let name: String
    let figure: String
    let target: String
    /// nil when it could not be measured in this run (the figure says why).
    let met: Bool?

    var verdict: String {
        guard let met else { return "not measured" }
        return met ? "met" : "MISSED"
    }
}

/// Plain-text output: one section per case, a table per section, a summary at the end.
/// Results go to stdout, flushed after each section; progress notes go to stderr.
enum Report {
    static func section(_ title: String) {
        print("")
        print("== \(title)")
    }

    /// An indented line of explanation under a section.
    static func note(_ text: String) {
        print("  \(text)")
    }

    /// Prints `rows` in aligned columns under a heading row; a column empty in every row is left out.
    static func table(_ rows: [Row], spreadHeading: String = "p25-p75", ratioHeading: String = "ratio") {
        let heading = Row(what: "", median: "median", spread: spreadHeading, ratio: ratioHeading, target: "target", verdict: "")
        let all = [heading] + rows
        let columns: [(Row) -> String] = [\.what, \.median, \.spread, \.ratio, \.target, \.verdict]
        let widths = columns.map { cell in all.map { cell($0).count }.max() ?? 0 }
        let shown = columns.map { cell in rows.contains { !cell($0).isEmpty } }
        for row in all {
            var line = "  "
            for (index, cell) in columns.enumerated() where shown[index] {
                let text = cell(row)
                let pad = String(repeating: " ", count: widths[index] - text.count)
                // Names and verdicts read left to right; figures line up on the right.
                line += (index == 0 || index == 5 ? text + pad : pad + text) + "  "
            }
            print(line.trimmingSuffix())
        }
    }

    static func summary(_ outcomes: [TargetOutcome]) {
        section("summary: the targets (issues 8, 12, 17, 18, 25, 27, 35, 36)")
        guard !outcomes.isEmpty else {
            note("(no case with a target ran)")
            return
        }
        let rows = outcomes.map { [$0.name, $0.figure, $0.target, $0.verdict] }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return column == 1 ? pad + text : text + pad
            }
            print(("  " + cells.joined(separator: "  ")).trimmingSuffix())
        }
        let missed = outcomes.filter { $0.met == false }.count
        let unmeasured = outcomes.filter { $0.met == nil }.count
        print("")
        print("  \(outcomes.count - missed - unmeasured) met, \(missed) missed\(unmeasured > 0 ? ", \(unmeasured) not measured" : "") (a missed target is a result, not a failure: exit status 0)")
    }

    /// Writes what is buffered, so a section shows up as soon as it is done.
    static func flush() {
        fflush(nil)
    }

    /// A progress line on stderr (stdout stays the report).
    static func progress(_ text: String) {
        standardError("pricehost-benchmark: \(text)")
    }

    /// One line on stderr, as it is.
    static func standardError(_ line: String) {
        _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    static func milliseconds(_ value: Double, unit: Bool = true) -> String {
        let digits = value < 10 ? 2 : value < 1000 ? 1 : 0
        return String(format: "%.\(digits)f", value) + (unit ? " ms" : "")
    }

    /// `+3.19 ms` or `-0.42 ms`: a difference between two medians.
    static func signedMilliseconds(_ value: Double) -> String {
        (value < 0 ? "-" : "+") + milliseconds(abs(value))
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2fx", value)
    }

    /// `18,636 KiB`.
    static func kilobytes(_ value: Double) -> String {
        grouped(Int(value.rounded())) + " KiB"
    }

    /// `+1,204 KiB` or `-8 KiB`.
    static func signedKilobytes(_ value: Double) -> String {
        (value >= 0 ? "+" : "-") + kilobytes(abs(value))
    }

    /// `1,000,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }
}

extension String {
    func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

// Rendering results: the short text summary, JSON, JSON Lines traces and JUnit XML.
import Foundation
import NavigationPolicy

public enum Reporting {
    /// One summary line per flow (and, explored, one per branch), then a total line.
    public static func text(_ results: [FlowResult], verbose: Bool = false) -> String {
        var lines: [String] = []
        let width = min(40, results.map(\.flow.name.count).max() ?? 0)
        for r in results {
            let mark = r.passed ? "PASS" : "FAIL"
            let name = r.flow.name.padding(toLength: max(width, r.flow.name.count), withPad: " ", startingAt: 0)
            if r.explored {
                var counts: [String: Int] = [:]
                for b in r.branches { counts[b.outcome.kind.rawValue, default: 0] += 1 }
                let summary = Outcome.Kind.allCases.compactMap { k in counts[k.rawValue].map { "\($0) \(k.rawValue)" } }
                    .joined(separator: ", ")
                lines.append("\(mark)  \(name)  \(r.branches.count) branch\(r.branches.count == 1 ? "" : "es"): \(summary)\(r.truncated ? " (bound hit)" : "")")
                for b in r.branches {
                    lines.append("        \(b.passed ? "ok  " : "FAIL") \(b.branch): \(branchLine(b))")
                    for f in b.failures { lines.append("              ✗ \(f)") }
                }
            } else if let b = r.branches.first {
                lines.append("\(mark)  \(name)  \(branchLine(b))")
                for f in b.failures { lines.append("      ✗ \(f)") }
            }
            if verbose || !r.passed {
                for b in r.branches where verbose || !b.passed {
                    if r.explored { lines.append("      trace of \(b.branch):") }
                    for e in b.events { lines.append("      " + e.text) }
                }
            }
        }
        let passed = results.filter(\.passed).count
        let branches = results.reduce(0) { $0 + $1.branches.count }
        var total = "\(results.count) flow\(results.count == 1 ? "" : "s"): \(passed) passed, \(results.count - passed) failed"
        if results.contains(where: \.explored) { total += " (\(branches) branches)" }
        lines.append(total)
        return lines.joined(separator: "\n") + "\n"
    }

    static func branchLine(_ b: SimulationReport) -> String {
        var s = b.outcome.description
        s += " · \(b.navigationCount) hop\(b.navigationCount == 1 ? "" : "s")"
        if !b.appsOpened.isEmpty { s += " · apps: \(b.appsOpened.joined(separator: ", "))" }
        return s
    }

    /// One JSON object per flow, one per line.
    public static func json(_ results: [FlowResult]) -> String {
        var out = ""
        for r in results {
            let branches = r.branches.map { b in
                JSONValue.object([
                    ("branch", .string(b.branch)), ("choices", .array(b.choices.map(JSONValue.string))),
                    ("outcome", .string(b.outcome.kind.rawValue)), ("place", .string(b.outcome.place)),
                    ("reason", .string(b.outcome.reason)), ("hops", .int(b.navigationCount)),
                    ("appsOpened", .array(b.appsOpened.map(JSONValue.string))), ("passed", .bool(b.passed)),
                    ("failures", .array(b.failures.map(JSONValue.string))),
                ])
            }
            out += JSONWriter.line(.object([
                ("flow", .string(r.flow.name)), ("file", .string(r.flow.file)), ("explored", .bool(r.explored)),
                ("passed", .bool(r.passed)), ("truncated", .bool(r.truncated)), ("branches", .array(branches)),
            ])) + "\n"
        }
        return out
    }

    /// Every event of every branch, one JSON object per line.
    public static func traceJSONLines(_ results: [FlowResult]) -> String {
        var out = ""
        for r in results { for b in r.branches { for e in b.events { out += e.jsonLine + "\n" } } }
        return out
    }

    /// A JUnit XML report: one test suite per flow, one test case per branch.
    public static func junit(_ results: [FlowResult]) -> String {
        let tests = results.reduce(0) { $0 + $1.branches.count }
        let failures = results.reduce(0) { $0 + $1.branches.filter { !$0.passed }.count }
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"plainview simulate\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for r in results {
            let f = r.branches.filter { !$0.passed }.count
            x += "  <testsuite name=\(attr(r.flow.name)) tests=\"\(r.branches.count)\" failures=\"\(f)\" errors=\"0\" file=\(attr(r.flow.file))>\n"
            for b in r.branches {
                let time = String(format: "%.3f", Double(b.virtualTime) / 1000)
                x += "    <testcase classname=\(attr("plainview.simulate." + r.flow.name)) name=\(attr(b.branch)) time=\"\(time)\">\n"
                if !b.passed {
                    x += "      <failure message=\(attr(b.failures.joined(separator: "; "))) type=\"expectation\">"
                    x += escape(b.outcome.description) + "</failure>\n"
                }
                x += "      <system-out>" + escape(b.events.map(\.text).joined(separator: "\n")) + "</system-out>\n"
                x += "    </testcase>\n"
            }
            x += "  </testsuite>\n"
        }
        x += "</testsuites>\n"
        return x
    }

    static func attr(_ s: String) -> String { "\"" + escape(s) + "\"" }

    static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(u)
            case _ where u.value < 0x20: out += "?"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Writes `text` to `path` atomically (temp file + rename).
    public static func writeAtomically(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

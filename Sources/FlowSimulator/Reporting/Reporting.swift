// Rendering results: the short text summary, JSON, JSON Lines traces and JUnit XML.
import Foundation
import NavigationPolicy
import PaymentURLHelpers
import PlainviewSupport

public enum Reporting {
    /// One summary line per flow (and, explored, one per branch), one per flow that could not be read, then a
    /// total line.
    public static func text(_ results: [FlowResult], problems: [FlowInputProblem] = [], verbose: Bool = false) -> String {
        var lines: [String] = []
        for p in problems { lines.append("ERROR \(p.path)  input error: \(p.message)") }
        let width = min(40, results.map(\.flow.name.count).max() ?? 0)
        for r in results {
            let mark = r.passed ? "PASS" : "FAIL"
            let name = r.flow.name.padding(toLength: max(width, r.flow.name.count), withPad: " ", startingAt: 0)
            if r.explored {
                var counts: [String: Int] = [:]
                for b in r.branches { counts[b.outcome.kind.rawValue, default: 0] += 1 }
                let summary = Outcome.Kind.allCases.compactMap { k in counts[k.rawValue].map { "\($0) \(k.rawValue)" } }
                    .joined(separator: ", ")
                lines.append(
                    "\(mark)  \(name)  \(r.branches.count) branch\(r.branches.count == 1 ? "" : "es"): \(summary)\(r.truncated ? " (bound hit)" : "")"
                )
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
        if !problems.isEmpty { total += ", \(problems.count) input error\(problems.count == 1 ? "" : "s")" }
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

    /// One JSON object per flow, one per line; a flow that could not be read is `{"file", "inputError"}`.
    public static func json(_ results: [FlowResult], problems: [FlowInputProblem] = []) -> String {
        var out = ""
        for p in problems {
            out += JSONWriter.line(.object([("file", .string(p.path)), ("inputError", .string(p.message))])) + "\n"
        }
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
            out +=
                JSONWriter.line(
                    .object([
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

    /// A JUnit XML report: one test suite per flow, one test case per branch, one errored suite per flow that
    /// could not be read. `time` is the wall-clock time the run took; the simulated time is the test case's
    /// `simulatedTime` property (seconds).
    public static func junit(_ results: [FlowResult], problems: [FlowInputProblem] = []) -> String {
        let tests = results.reduce(0) { $0 + $1.branches.count } + problems.count
        let failures = results.reduce(0) { $0 + $1.branches.filter { !$0.passed }.count }
        let total = results.reduce(Duration.zero) { $0 + $1.branches.reduce(Duration.zero) { $0 + $1.wallTime } }
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x +=
            "<testsuites name=\"plainview simulate\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(problems.count)\" time=\"\(seconds(total))\">\n"
        for p in problems {
            x += "  <testsuite name=\(attr(p.path)) tests=\"1\" failures=\"0\" errors=\"1\" file=\(attr(p.path))>\n"
            x += "    <testcase classname=\"plainview.simulate\" name=\(attr(p.path)) time=\"0.000\">\n"
            x += "      <error message=\(attr(p.message)) type=\"input\"/>\n"
            x += "    </testcase>\n  </testsuite>\n"
        }
        for r in results {
            let f = r.branches.filter { !$0.passed }.count
            let suiteTime = r.branches.reduce(Duration.zero) { $0 + $1.wallTime }
            x +=
                "  <testsuite name=\(attr(r.flow.name)) tests=\"\(r.branches.count)\" failures=\"\(f)\" errors=\"0\" time=\"\(seconds(suiteTime))\" file=\(attr(r.flow.file))>\n"
            for b in r.branches {
                x +=
                    "    <testcase classname=\(attr("plainview.simulate." + r.flow.name)) name=\(attr(b.branch)) time=\"\(seconds(b.wallTime))\">\n"
                x +=
                    "      <properties><property name=\"simulatedTime\" value=\"\(String(format: "%.3f", Double(b.virtualTime) / 1000))\"/></properties>\n"
                if !b.passed {
                    x += "      <failure message=\(attr(b.failures.joined(separator: "; "))) type=\"expectation\">"
                    x += XMLEscaping.text(b.outcome.description) + "</failure>\n"
                }
                x += "      <system-out>" + XMLEscaping.text(b.events.map(\.text).joined(separator: "\n")) + "</system-out>\n"
                x += "    </testcase>\n"
            }
            x += "  </testsuite>\n"
        }
        x += "</testsuites>\n"
        return x
    }

    static func attr(_ s: String) -> String { "\"" + XMLEscaping.text(s) + "\"" }

    /// Seconds with millisecond precision, as JUnit's `time` attributes are written.
    static func seconds(_ d: Duration) -> String {
        let (s, attoseconds) = d.components
        return String(format: "%.3f", Double(s) + Double(attoseconds) / 1e18)
    }

    /// Writes `text` to `path` atomically (temp file + rename).
    public static func writeAtomically(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

// What `simulate` and `merge-results` print and write from a run's results: the summary on standard output, the
// results file, the trace, JUnit and the HTML report, and the exit status. Both commands go through this one
// path, so the shards of a run merged print and write what the unsplit run would have.
import ArgumentParser
import FlowSimulator
import Foundation

struct SimulateOutput {
    /// `--json`: one JSON object per flow instead of the text summary.
    var json = false
    /// `--verbose`: the trace of every run in the text summary, not only of failing ones.
    var verbose = false
    var trace: String?
    var junit: String?
    var report: String?
    /// `--results FILE`: the results themselves, for `merge-results`.
    var results: String?

    /// Prints the summary, writes the files asked for, and ends with the exit status of the contract: 64 when an
    /// input did not read, else 1 when an expectation failed.
    func write(_ run: ResultsFile) throws {
        let problems = run.problems
        if run.isComparison {
            // Compare: the model's summary, then each engine's under its name; the report files hold every engine's runs.
            for (index, name) in run.runs.enumerated() {
                let section = run.results(run: index)
                print(
                    json
                        ? Reporting.json(section)
                        : "\(name):\n" + Reporting.text(section, problems: problems, verbose: verbose),
                    terminator: "")
            }
        } else {
            print(
                json
                    ? Reporting.json(run.reported, problems: problems)
                    : Reporting.text(run.reported, problems: problems, verbose: verbose),
                terminator: "")
        }
        if let results {
            do { try Reporting.writeAtomically(String(decoding: run.encoded(), as: UTF8.self), to: results) } catch {
                throw inputError("\(results): cannot write the results file: \(error.localizedDescription)")
            }
        }
        do {
            if let trace { try Reporting.writeAtomically(Reporting.traceJSONLines(run.reported), to: trace) }
            if let junit { try Reporting.writeAtomically(Reporting.junit(run.reported, problems: problems), to: junit) }
            if let report { try Reporting.writeAtomically(Reporting.html(run.reported, problems: problems), to: report) }
        } catch {
            throw inputError("cannot write the report: \(error.localizedDescription)")
        }
        if run.isComparison {
            let engines = run.runs.indices.dropFirst().map { (name: run.runs[$0], results: run.results(run: $0)) }
            let differences = EngineComparison.differences(model: run.results(run: 0), engines: engines)
            let times = run.runs.indices.map { EngineComparison.SideTime(name: run.runs[$0], results: run.results(run: $0)) }
            print(
                json
                    ? EngineComparison.jsonLines(differences, times: times)
                    : EngineComparison.text(differences, flows: run.flows.count, times: times),
                terminator: "")
        }
        if !problems.isEmpty { throw Exit.inputError }
        if run.failed { throw Exit.expectationFailed }
    }
}

extension EngineRunOutput {
    /// Each run's results, in the order of the flows: the mode's one run, or with compare the model's and then
    /// each engine's.
    func sections(_ mode: EngineMode) -> [(name: String, results: [FlowResult])] {
        mode.compares ? [("model", modelResults)] + engineResults : [(mode.rawValue, results)]
    }
}

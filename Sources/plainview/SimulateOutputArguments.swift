import ArgumentParser

/// What `simulate` and `merge-results` print and write besides the results file: one declaration of the options,
/// so that the two commands take them alike.
struct SimulateOutputArguments: ParsableArguments {
    @Option(help: "Write every event of every run as JSON Lines to FILE.")
    var trace: String?

    @Option(help: "Write a JUnit XML report to FILE (time: wall-clock seconds; simulatedTime: a property).")
    var junit: String?

    @Option(help: "Write a self-contained HTML report (a sequence diagram per flow and branch) to FILE.")
    var report: String?

    @Flag(help: "Print one JSON object per flow instead of the text summary.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print the trace of every run, not only of failing ones.")
    var verbose = false

    /// The output these options ask for, with the results file at `results` if given.
    func output(results: String?) -> SimulateOutput {
        SimulateOutput(json: json, verbose: verbose, trace: trace, junit: junit, report: report, results: results)
    }
}

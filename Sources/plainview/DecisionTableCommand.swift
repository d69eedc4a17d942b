import ArgumentParser
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewConfig

/// `plainview decision-table`: the navigations Android flows ask, decided by the app's policy, as a table an
/// app's unit tests replay against its WebViewClient (docs/embedding.md).
struct DecisionTableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decision-table",
        abstract: "Write every navigation the Android flows ask, with the policy's decision and the app's command.",
        discussion: """
            Walks every branch of each Android flow (as simulate --explore does) and writes each distinct web-view \
            navigation it asks (url, current page, frame, trigger, gesture, method), decided by --policy on the \
            device --env describes, with what shouldOverrideUrlLoading returns and what the app does next.
            Tab-separated: a format line, a header line, one row per navigation (docs/cli.md).
            iOS flows are skipped. Exit status: 64 when the policy, the environment or a flow does not read.
            """
    )

    @Option(help: "The app's policy file (YAML or JSON); its platform must be android.")
    var policy: String

    @Option(help: "The environment file: the apps installed on the device the table is for (default: none).")
    var env: String?

    @Option(
        name: .customLong("url"),
        help: ArgumentHelp(
            "A URL to decide on its own, as `plainview decide URL` does (main frame, no current page, a link without a gesture); repeatable.",
            valueName: "URL"))
    var urls: [String] = []

    @Option(help: "Write the table to FILE instead of standard output.")
    var out: String?

    @Argument(help: "Flow folders, flow files or folders of flows.")
    var paths: [String] = []

    func validate() throws {
        if paths.isEmpty && urls.isEmpty { throw ValidationError("give at least one flow path or --url URL") }
        if let har = paths.first(where: LoadedFlows.isHAR) {
            throw ValidationError(
                "\(har): decision-table reads flow files and folders; import a recording first (plainview import)")
        }
    }

    func run() async throws {
        let (appPolicy, system) = try loadPolicyAndPhone(policy: policy, platform: nil, env: env)
        guard appPolicy.platform == .android else {
            throw inputError(
                "\(policy): the decision table holds Android commands; expected platform: android, found \(appPolicy.platform.rawValue)"
            )
        }
        let loaded = LoadedFlows.loadEach(paths, har: nil)
        if let problem = loaded.problems.first { throw inputError(problem.message) }
        var table = DecisionTable(engine: NavigationPolicyEngine(policy: appPolicy, system: system))
        var flows = 0, branches = 0, skipped: [String] = []
        for flow in loaded.flows {
            guard flow.policy.platform == .android else {
                skipped.append(flow.name)
                continue
            }
            do { branches += try table.add(flow: flow).branches.count } catch { throw inputError(error.description) }
            flows += 1
        }
        if !paths.isEmpty && flows == 0 {
            throw inputError("no Android flow in \(paths.joined(separator: ", ")) (flows whose policy says platform: android)")
        }
        for url in urls { table.add(Navigation(url: url, userGesture: false), source: "url") }
        if !skipped.isEmpty { printError("note: skipped \(skipped.count) iOS flow(s): \(skipped.joined(separator: ", "))") }
        guard let out else {
            FileHandle.standardOutput.write(Data(table.tsv.utf8))
            return
        }
        do { try Reporting.writeAtomically(table.tsv, to: out) } catch {
            throw inputError("\(out): cannot write the table: \(error.localizedDescription)")
        }
        print("\(out): \(table.rows.count) rows from \(flows) Android flow(s), \(branches) branch(es), \(urls.count) URL(s)")
    }
}

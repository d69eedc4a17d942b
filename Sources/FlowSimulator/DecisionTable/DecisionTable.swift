// The decision table (`plainview decision-table`): every navigation a set of flows asks an Android web view,
// with the policy's decision and the command the app carries out, for an app's own unit tests to replay against
// its WebViewClient (docs/embedding.md). Written as tab-separated text (DecisionTable+TSV.swift).
import NavigationPolicy

/// Distinct web-view navigations, each decided by one policy on one device, in the order first asked.
public struct DecisionTable: Sendable {
    /// The engine every row is decided by: the app's policy on the device the table is made for.
    public let engine: NavigationPolicyEngine
    public private(set) var rows: [DecisionTableRow] = []
    private var seen: Set<Navigation> = []

    public init(engine: NavigationPolicyEngine) { self.engine = engine }

    /// Adds `navigation` decided by the table's engine, unless a row already asks the same (URL, current URL,
    /// frame, trigger, gesture, method). True when a row was added.
    @discardableResult
    public mutating func add(_ navigation: Navigation, source: String) -> Bool {
        guard seen.insert(navigation).inserted else { return false }
        rows.append(DecisionTableRow(navigation: navigation, decision: engine.decide(navigation), source: source))
        return true
    }

    /// Walks every branch of `flow` (`Simulator.explore`, the flow running on its own policy and environment) and
    /// adds each navigation its web view asks. The app's own loads (trigger `app-load`) are left out: Android never
    /// asks `shouldOverrideUrlLoading` about `loadUrl`. Returns the flow's explored result; throws when a page
    /// file of the flow can no longer be read.
    @discardableResult
    public mutating func add(flow: Flow) throws(PageFileError) -> FlowResult {
        let loaded = try flow.loadingPageFiles()
        let recorder = NavigationRecorder()
        let result = Simulator.explore(loaded, decider: recorder.decider(for: loaded))
        for run in recorder.runs {
            let source = "\(flow.name) (\(run.branch))"
            for navigation in run.navigations where navigation.trigger != .appLoad {
                add(navigation, source: source)
            }
        }
        return result
    }
}

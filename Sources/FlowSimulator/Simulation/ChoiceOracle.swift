// The simulated device's uncertain points: which universal links work, which apps are installed, what the
// user answers to a prompt, whether the browser blocks an automatic redirect to an app. In a normal run they
// take their default (or the flow's `assume:`); `--explore` tries every answer.
//
// A point is identified by what is asked (`ChoiceKey`: the question — kind, app, URL — and how many times that
// same question was asked before in the run), never by when it is asked. A branch is a set of answers by key,
// so the branches explore finds, and their names, do not depend on the order in which the engine, the OS or the
// browser ask their questions.

/// What an uncertain point asks, independent of when it is asked.
public struct ChoiceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The question: its kind and subject (`app-installed Swish`, `universal-link BankID https://…`).
    public var question: String
    /// How many times the same question was asked before in the run (a universal link fails per attempt).
    public var occurrence: Int

    public init(_ question: String, occurrence: Int = 0) {
        self.question = question
        self.occurrence = occurrence
    }

    public static func < (a: ChoiceKey, b: ChoiceKey) -> Bool { (a.question, a.occurrence) < (b.question, b.occurrence) }
    public var description: String { occurrence == 0 ? question : "\(question) #\(occurrence + 1)" }
}

/// One uncertain point met during a run: what it asked, its alternatives (labels) and the one taken.
public struct ChoicePoint: Sendable, Hashable {
    public var key: ChoiceKey
    /// Labels; index 0 is the default (the happy path).
    public var alternatives: [String]
    public var chosen: Int
    public var label: String { alternatives.indices.contains(chosen) ? alternatives[chosen] : "?" }
}

/// Takes choices: from a script of answers by key (explore), or the default; records every point met.
final class ChoiceOracle {
    /// The labels of the non-default answers, without their `:DETAIL` (Pages/README.md, "Explore"): what a flow's
    /// `expect.branches[].when` may name.
    static let branchLabels = [
        "universal-link-fails", "app-link-fails", "app-link-unverified", "app-missing", "prompt-declined", "redirect-blocked",
        "host-killed", "third-party-cookies-allowed", "default-browser",
    ]

    /// Explore: the answers of this branch, by key; a point not in it takes its default.
    let script: [ChoiceKey: Int]
    let exploring: Bool
    /// Explore: at most this many points are recorded (and so branched on) per run; later ones take their default.
    let depth: Int
    private(set) var points: [ChoicePoint] = []
    private var asked: [String: Int] = [:]
    var onChoice: ((String) -> Void)?

    init(script: [ChoiceKey: Int] = [:], exploring: Bool, depth: Int) {
        self.script = script
        self.exploring = exploring
        self.depth = depth
    }

    /// Non-default choices taken (labels), in the canonical order of their keys: the branch's name.
    var labels: [String] {
        points.filter { $0.chosen != 0 }.sorted { $0.key < $1.key }.map(\.label)
    }

    /// Answers `question` with one of `alternatives` (index 0 is the default). `fixed` (a flow assumption, normal
    /// runs only) wins without a choice point.
    func choose(_ question: String, _ alternatives: [String], fixed: Int? = nil) -> Int {
        let n = asked[question, default: 0]
        asked[question] = n + 1
        let key = ChoiceKey(question, occurrence: n)
        var chosen = 0
        if exploring {
            if let scripted = script[key] {
                chosen = alternatives.indices.contains(scripted) ? scripted : 0
                points.append(ChoicePoint(key: key, alternatives: alternatives, chosen: chosen))
            } else if points.count < depth {
                points.append(ChoicePoint(key: key, alternatives: alternatives, chosen: 0))
            }
        } else if let fixed, alternatives.indices.contains(fixed) {
            chosen = fixed
            points.append(ChoicePoint(key: key, alternatives: alternatives, chosen: chosen))
        }
        if chosen != 0 { onChoice?(alternatives[chosen]) }
        return chosen
    }
}

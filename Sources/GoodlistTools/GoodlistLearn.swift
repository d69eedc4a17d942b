// `plainview goodlist learn TRACE…`: hosts whose picky-page rule made a simulated flow leave the web view and get
// stuck in the browser, with counts and evidence, as candidate goodlist entries for a person to verify.
//
// Input: the simulator's JSON Lines trace (`plainview simulate --trace FILE`), one event object a line:
//   {"flow":"…","branch":"default","step":7,"event":"decide","context":"webview","url":"https://acs.bank.example/…",
//    "action":"open-browser","target":"…","rule":"web.picky-page","reason":"…"}
//   {"flow":"…","branch":"default","step":12,"event":"outcome","context":"browser","action":"stuck","reason":"…"}
// The minimal shape {"event":"decision","flow":…,"step":…,"url":…,"rule":…} is read too (`branch` optional).
import Foundation
import NavigationPolicy
import PlainviewConfig

/// One place a candidate host showed up.
public struct GoodlistEvidence: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The picky-page rule sent the flow out of the web view at this host.
        case left
        /// The run ended stuck after (or at) this host.
        case stuck
    }
    public var kind: Kind
    public var flow: String
    public var branch: String?
    public var step: Int?
    /// The rule that fired (for `left`), or the outcome reason (for `stuck`).
    public var detail: String
    /// Trace file and 1-based line.
    public var file: String
    public var line: Int

    /// `flow/branch step N (file:line)`.
    public var summary: String {
        var s = flow
        if let branch, !branch.isEmpty, branch != "default" { s += "/\(branch)" }
        if let step { s += " step \(step)" }
        return s + " (\(file):\(line))"
    }
}

/// A host worth considering for the goodlist.
public struct GoodlistCandidate: Sendable, Hashable {
    /// The normalised host; the suggested entry is exactly this host (never a wildcard: a person widens it).
    public var host: String
    public var evidence: [GoodlistEvidence]
    public var leftCount: Int { evidence.filter { $0.kind == .left }.count }
    public var stuckCount: Int { evidence.filter { $0.kind == .stuck }.count }
}

/// Collects candidates from trace files.
///
/// A host is proposed only on evidence that its rule caused a failure: a run left the web view there (the
/// picky-page rule) and then got stuck in the browser, on the default branch (an explored branch's own choices —
/// an app not installed, a universal link that fails — may be why it got stuck, whatever the host). A host is
/// never proposed when a run that left there completed or was canceled through the browser (it works as it is),
/// or when an app switch followed from the browser (the page there may set a cookie that the return must find:
/// moved into the web view, it would be left behind; see the shipped BankID cookie flows).
public struct GoodlistLearner: Sendable {
    /// Rule ids of the picky-page rule (unknown host under the goodlist policy → leave the web view).
    public static let pickyPageRules: Set<String> = ["web.picky-page", "web.picky-page-from-payment"]

    private var byHost: [String: [GoodlistEvidence]] = [:]
    private var order: [String] = []
    /// Hosts never to propose, each with why (the first reason found).
    public private(set) var keptOut: [(host: String, why: String)] = []
    /// Events of interest that give no evidence, each as `file:line: why` (not fatal; the CLI lists them).
    public private(set) var skipped: [String] = []
    public var skippedEvents: Int { skipped.count }
    public private(set) var eventCount = 0

    public init() {}

    private struct RunKey: Hashable { var file: String; var flow: String; var branch: String }

    /// One run's picky-page departures (in order) and the hosts an app switch followed.
    private struct Run {
        var left: [(host: String, evidence: GoodlistEvidence)] = []
        var switchedAfter: Set<String> = []
        /// The host app (the `start` event's `app`): launching it is the return, not a switch away.
        var hostApp: String?
    }

    /// Reads one trace (JSON Lines). A line that is not a JSON object is an error naming file and line.
    public mutating func read(_ bytes: [UInt8], file: String) throws(ConfigError) {
        var runs: [RunKey: Run] = [:]
        var start = 0
        var lineNumber = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            lineNumber += 1
            let slice = bytes[start..<end]
            start = end + 1
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(slice))) as? [String: Any] else {
                throw ConfigError(
                    file: file, line: lineNumber,
                    "not a JSON object: expected a JSON Lines trace (one event object a line, as written by plainview simulate --trace FILE)"
                )
            }
            eventCount += 1
            guard let event = object["event"] as? String else {
                skipped.append("\(file):\(lineNumber): no \"event\" key")
                continue
            }
            let flow = (object["flow"] as? String) ?? "?"
            let branch = object["branch"] as? String
            let step = (object["step"] as? NSNumber)?.intValue
            let key = RunKey(file: file, flow: flow, branch: branch ?? "")
            switch event {
            case "decide", "decision":
                guard let url = object["url"] as? String else {
                    skipped.append("\(file):\(lineNumber): a \(event) event without a url")
                    continue
                }
                guard case .success(let host) = GoodlistCheck.host(of: url) else {
                    skipped.append("\(file):\(lineNumber): \(url) has no http(s) host a goodlist entry could name")
                    continue
                }
                let rule = (object["rule"] as? String) ?? ""
                if Self.pickyPageRules.contains(rule) {
                    runs[key, default: Run()].left.append(
                        (
                            host,
                            GoodlistEvidence(
                                kind: .left, flow: flow, branch: branch, step: step, detail: rule, file: file,
                                line: lineNumber)
                        ))
                }
            case "start":
                runs[key, default: Run()].hostApp = object["app"] as? String
            case "launch":
                // A switch to another app after the run left the web view: the hosts it left at stay where they are.
                if let run = runs[key], !run.left.isEmpty, (object["app"] as? String).map({ $0 != run.hostApp }) ?? true {
                    runs[key]?.switchedAfter.formUnion(run.left.map(\.host))
                }
            case "outcome":
                let run = runs.removeValue(forKey: key) ?? Run()
                settle(run, outcome: object, flow: flow, branch: branch, step: step, file: file, line: lineNumber)
            default:
                continue
            }
        }
        // Runs the trace does not end: their departures are shown as evidence of nothing.
        for (_, run) in runs.sorted(by: { ($0.value.left.first?.evidence.line ?? 0) < ($1.value.left.first?.evidence.line ?? 0) })
        {
            for (host, evidence) in run.left { add(host, evidence) }
        }
    }

    /// What one run's outcome says about the hosts it left the web view at.
    private mutating func settle(
        _ run: Run, outcome object: [String: Any], flow: String, branch: String?, step: Int?, file: String, line: Int
    ) {
        let action = (object["action"] as? String) ?? ""
        for host in run.switchedAfter.sorted() {
            keepOut(host, "\(flow) switches to an app from the browser after leaving the web view there (\(file):\(line))")
        }
        if action == "complete" || action == "canceled" {
            for host in Set(run.left.map(\.host)).sorted() {
                keepOut(host, "\(flow) ends \(action) through the browser after leaving the web view there (\(file):\(line))")
            }
            return
        }
        guard action == "stuck" else { return }
        // A stuck run is evidence only for the host where the picky-page rule sent it out of the web view, and only
        // when it got stuck out there (in the browser), on the default branch. Stuck anywhere else (a declined
        // prompt, an app that failed, a page inside the web view) is not something an entry would fix.
        let context = (object["context"] as? String) ?? ""
        guard let host = run.left.last?.host else {
            skipped.append("\(file):\(line): \(flow) got stuck without leaving the web view by the picky-page rule")
            return
        }
        guard context == "browser" else {
            skipped.append(
                "\(file):\(line): \(flow) got stuck in \(context.isEmpty ? "an unnamed context" : context), not in the browser the picky-page rule opened at \(host)"
            )
            return
        }
        if let branch, !branch.isEmpty, branch != "default" {
            skipped.append(
                "\(file):\(line): \(flow) got stuck on branch \(branch), whose own choices may be why, not \(host)'s rule")
            return
        }
        for (h, evidence) in run.left { add(h, evidence) }
        add(
            host,
            GoodlistEvidence(
                kind: .stuck, flow: flow, branch: branch, step: step, detail: (object["reason"] as? String) ?? "stuck",
                file: file, line: line))
    }

    private mutating func keepOut(_ host: String, _ why: String) {
        guard !keptOut.contains(where: { $0.host == host }) else { return }
        keptOut.append((host, why))
    }

    private mutating func add(_ host: String, _ evidence: GoodlistEvidence) {
        if byHost[host] == nil { order.append(host) }
        byHost[host, default: []].append(evidence)
    }

    /// The candidates, most evidence first (then by host): hosts with a stuck run to their name, leaving out the
    /// ones kept out (`keptOut`) and those `known` already admits.
    public func candidates(excluding known: Goodlist = Goodlist()) -> [GoodlistCandidate] {
        let out = Set(keptOut.map(\.host))
        return order.compactMap { host -> GoodlistCandidate? in
            guard !out.contains(host), known.match(host: host) == nil, let evidence = byHost[host],
                evidence.contains(where: { $0.kind == .stuck })
            else { return nil }
            return GoodlistCandidate(host: host, evidence: evidence)
        }
        .sorted { a, b in
            a.evidence.count != b.evidence.count ? a.evidence.count > b.evidence.count : a.host < b.host
        }
    }

    /// Hosts seen in the traces that `known` already admits (left out of the candidates).
    public func alreadyAllowed(by known: Goodlist) -> [String] {
        order.filter { known.match(host: $0) != nil }
    }
}

extension GoodlistCandidate {
    /// Comment lines with the evidence, then the candidate entry in `.goodlist` format. It deliberately has no
    /// `issuer`/`vendor`: lint fails until a person has found out who runs the host and that it works.
    public func goodlistLines(today: GoodlistDate, sources: [String], maxEvidence: Int = 5) -> [String] {
        var what: [String] = []
        if leftCount > 0 { what.append("left the web view \(leftCount) time\(leftCount == 1 ? "" : "s") (picky-page rule)") }
        if stuckCount > 0 { what.append("flow stuck \(stuckCount) time\(stuckCount == 1 ? "" : "s")") }
        var lines = ["# \(host): \(what.joined(separator: "; "))"]
        let shown = evidence.prefix(maxEvidence).map { "\($0.kind.rawValue): \($0.summary)" }
        lines.append("#   " + shown.joined(separator: ", ") + (evidence.count > maxEvidence ? ", …" : ""))
        let why = "seen in simulated flows: " + what.joined(separator: "; ")
        lines.append(
            GoodlistSource.formatLine(
                pattern: host,
                attributes: [
                    .init(key: "added", value: today.description),
                    .init(key: "why", value: why),
                    .init(key: "source", value: "plainview goodlist learn " + sources.joined(separator: " ")),
                ]))
        return lines
    }
}

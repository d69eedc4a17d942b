import FlowSimulator
import Foundation


extension HARReplay {
    /// For a replayed HAR whose run ended without complete or canceled, adds a `note` event just before the
    /// outcome saying where the recording ended, so the trace tells a short recording from a broken flow.
    func annotate(_ results: [FlowResult]) -> [FlowResult] {
        results.map { result in
            guard let end = endings[result.flow.name] else { return result }
            var r = result
            for i in r.branches.indices where r.branches[i].outcome.kind != .complete && r.branches[i].outcome.kind != .canceled {
                var events = r.branches[i].events
                let at = events.lastIndex { $0.event == .outcome } ?? events.count
                let ref = at < events.count ? events[at] : events.last
                let note = TraceEvent(
                    flow: r.flow.name, branch: r.branches[i].branch, step: ref?.step ?? 1, time: ref?.time ?? 0, event: .note,
                    context: ref?.context ?? "webview", url: end.url,
                    reason: "recording ends: \(end.message) (\(end.source)); a HAR cannot hold app switches, taps or custom-scheme navigations: import it (plainview import) and add them as flow steps")
                events.insert(note, at: at)
                if at + 1 < events.count {
                    for j in (at + 1)..<events.count { events[j].step += 1 }
                }
                r.branches[i].events = events
            }
            return r
        }
    }
}

// What loading a goodlist at the entry cap costs a whole process: `plainview goodlist check` and `plainview decide`
// with a generated list of `Goodlist.maximumEntries` entries, provenance as full as the shipped list's (about
// 300 bytes a line, so about 60 MB), and a policy past the 4 MiB config cap, which must be refused at once.
import Foundation
import NavigationPolicy

enum GoodlistLoadBench {
    static func run(quick: Bool) -> [Metric] {
        guard let exe = Paths.sibling("plainview") else {
            return [
                Metric(
                    name: "goodlist_load.check_at_cap_s", value: .nan, unit: "s",
                    note: "build the CLI too: `swift build -c release` at the repository root")
            ]
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-load-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("cap.goodlist")
        let policy = dir.appendingPathComponent("policy.yaml")
        let big = dir.appendingPathComponent("big.yaml")
        let head = """
            platform: ios
            paymentUrl: \(Corpus.paymentURL)
            completeUrl: \(Corpus.completeURL)
            cancelUrl: \(Corpus.cancelURL)

            """
        let listBytes: Int
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var text = "# generated at the entry cap\n"
            text.reserveCapacity(Goodlist.maximumEntries * 310)
            for i in 0..<Goodlist.maximumEntries {
                let prefix = ["", "*.", "**."][i % 3]
                text += "\(prefix)acs\(i).bank\(i % 997).example issuer=\"Bank \(i)\" added=2026-11-22 verified=2026-11-22"
                text += " why=\"3-D Secure ACS of bank \(i), seen in a recorded checkout\""
                text += " source=https://github.com/example/issuer-lists/blob/0123456789abcdef0123456789abcdef01234567/acs.txt\n"
            }
            listBytes = text.utf8.count
            try Data(text.utf8).write(to: list)
            try Data((head + "goodlist: [cap.goodlist]\n").utf8).write(to: policy)
            var inline = head + "goodlist:\n"
            var i = 0
            while inline.utf8.count < 100 * 1024 * 1024 {
                inline += "  - acs\(i).bank.example\n"
                i += 1
            }
            try Data(inline.utf8).write(to: big)
        } catch {
            return [
                Metric(name: "goodlist_load.check_at_cap_s", value: .nan, unit: "s", note: "cannot write the inputs: \(error)")
            ]
        }
        let url = "https://acs7.bank7.example/challenge"
        var out: [Metric] = []
        for (name, args) in [
            ("check_at_cap", ["goodlist", "check", "--goodlist", list.path, url]),
            ("decide_at_cap", ["decide", "--policy", policy.path, url]),
            ("decide_policy_100mb", ["decide", "--policy", big.path, url]),
        ] {
            var best: Child.Result?
            for _ in 0..<(quick ? 1 : 3) {
                guard let r = Child.peak(exe, args) else { continue }
                if best.map({ r.seconds < $0.seconds }) ?? true { best = r }
            }
            guard let r = best else { continue }
            let refused = name == "decide_policy_100mb"
            out.append(
                Metric(
                    name: "goodlist_load.\(name)_s", value: r.seconds, unit: "s",
                    target: refused ? "<= 0.5" : "<= 5", pass: refused ? r.seconds <= 0.5 && r.status == 64 : r.seconds <= 5,
                    note: "best of runs, spawn to exit; exit \(r.status)"))
            let ratio = Double(r.maxRSSBytes) / Double(listBytes)
            out.append(
                Metric(
                    name: "goodlist_load.\(name)_peak_rss_mb", value: Double(r.maxRSSBytes) / 1e6, unit: "MB",
                    baseline: Double(listBytes) / 1e6, ratio: refused ? nil : ratio,
                    target: refused ? nil : "ratio <= 4", pass: refused ? nil : ratio <= 4,
                    note: "peak RSS of the process; baseline = the \(Goodlist.maximumEntries)-entry list's size"))
        }
        return out
    }
}

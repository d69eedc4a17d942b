// Pages dense with one kind of content (`--only dense`): the peak memory of the whole `plainview extract` process on
// a 60 MB page of each kind, and the CPU time of one 60 MB script of navigations.
import Foundation
import TestSupport

enum DenseBench {
    static func run(quick: Bool) -> [Metric] {
        guard let exe = Paths.sibling("plainview") else {
            return [
                Metric(
                    name: "extract.dense", value: .nan, unit: "x",
                    note: "build the CLI too: `swift build -c release` at the repository root")
            ]
        }
        let bytes = quick ? 6_000_000 : 60_000_000
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-dense-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let arguments = ["extract", file.path, "--base", "https://shop.example/pay"]
        var out: [Metric] = []
        for kind in DensePage.allCases {
            let name = "extract.dense_peak_over_page.\(kind.rawValue)"
            let page = kind.page(bytes: bytes)
            guard (try? Data(page).write(to: file)) != nil, let r = Child.peak(exe, arguments) else {
                out.append(Metric(name: name, value: .nan, unit: "MB", note: "could not run \(exe)"))
                continue
            }
            let ratio = Double(r.maxRSSBytes) / Double(page.count)
            out.append(
                Metric(
                    name: name, value: Double(r.maxRSSBytes) / 1_000_000, unit: "MB", baseline: Double(page.count) / 1_000_000,
                    ratio: ratio, target: "<= 3", pass: r.status == 0 && ratio <= 3,
                    note: "whole process on a generated page; exit \(r.status)"))
            // CPU time of the pages that once cost the most of it, the least of three runs (the peak above is the
            // memory figure).
            let cpu: (name: String, note: String)? =
                switch kind {
                case .navigationsInOneScript:
                    ("one_script_of_navigations", "one \(page.count / 1_000_000) MB inline script of `location.href = \"…\";`")
                case .nestedInline:
                    (
                        "nested_inline",
                        "\(page.count / 1_000_000) MB of nothing but `<b>` (each past depth 512 closes the one before)"
                    )
                case .strayEndTags: ("stray_end_tags", "\(page.count / 2_000_000) MB of `<b>`, then as many bytes of `</i>`")
                default: nil
                }
            if let cpu {
                let runs = (0..<(quick ? 1 : 3)).compactMap { _ in Child.run(exe, arguments)?.cpuSeconds }
                out.append(
                    Metric(
                        name: "extract.cpu_s.\(cpu.name)", value: runs.min() ?? .nan, unit: "s",
                        note: "whole process, \(cpu.note)"))
            }
        }
        return out
    }
}

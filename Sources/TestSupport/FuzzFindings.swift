// Collects property violations found by a fuzz loop, so one failing property reports a handful of
// reproducible inputs instead of thousands of expectation failures.

public struct FuzzFindings: Sendable, CustomStringConvertible {
    public private(set) var count = 0
    private var examples: [String] = []
    private let keep: Int

    public init(keep: Int = 8) { self.keep = keep }

    public var isEmpty: Bool { count == 0 }

    /// Records that `property` failed for `input` (shown Swift-escaped, so it can be pasted into a test).
    public mutating func record(_ property: String, input: String, detail: String = "") {
        count += 1
        if examples.count < keep {
            examples.append("\(property): \(input.debugDescription)\(detail.isEmpty ? "" : " — \(detail)")")
        }
    }

    public var description: String {
        count == 0 ? "no findings" : "\(count) finding(s), first \(examples.count):\n" + examples.joined(separator: "\n")
    }
}

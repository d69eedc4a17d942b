import TestSupport
@testable import FlowSimulator

/// Small flows on the shop.example.com checkout (payment /pay, complete /complete, cancel /cancel), written
/// inline in tests: `rest` is the flow file after its `policy:` (environment, pages …), at top-level indent.
enum ShopFlow {
    static func load(platform: String = "ios", _ rest: String) throws -> Flow {
        try FlowLoader.parse(
            """
            policy:
              platform: \(platform)
              paymentUrl: https://shop.example.com/pay
              completeUrl: https://shop.example.com/complete
              cancelUrl: https://shop.example.com/cancel
            \(rest)
            """, file: "flow.yaml", folder: Project.root.path)
    }

    /// The outcome of the flow's one run.
    static func outcome(platform: String = "ios", _ rest: String) throws -> String {
        Simulator.run(try load(platform: platform, rest)).branches[0].outcome.kind.rawValue
    }
}

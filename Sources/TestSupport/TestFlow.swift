// Flow folders written by tests: the shop's usual policy, and flows more than one suite runs.
import Foundation

public enum TestFlow {
    /// A flow folder in a fresh temporary directory: `name`, the shop's usual policy on `platform` (payment, complete
    /// and cancel URLs on shop.example.com), then `rest` (pages, steps, expectations).
    public static func folder(_ name: String, platform: String = "ios", _ rest: String) throws -> URL {
        let folder = try Project.temporaryDirectory().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let policy =
            #"policy: {platform: \#(platform), paymentUrl: "https://shop.example.com/pay", completeUrl: "https://shop.example.com/done", cancelUrl: "https://shop.example.com/cancel"}"#
        try Data("name: \(name)\n\(policy)\n\(rest)\n".utf8).write(to: folder.appendingPathComponent("flow.yaml"))
        return folder
    }

    /// The payment page holds `frames` (HTML), among them the 3-D Secure frame (https://acs.bank.example/step1); an
    /// ad frame (https://ads.example.net/banner) is served if asked for. The user taps Continue in the 3-D Secure
    /// frame, whose form posts inside it, then its `target=_top` link Back to shop: the payment completes.
    public static func frames(_ frames: String) -> String {
        """
        pages:
          - url: https://shop.example.com/pay
            body: "<html><body>\(frames)</body></html>"
          - url: https://ads.example.net/banner
            body: "<html><body><a href='https://ads.example.net/click'>Ad</a></body></html>"
          - url: https://acs.bank.example/step1
            body: "<html><body><form method=post action='https://acs.bank.example/step2'><button>Continue</button></form></body></html>"
          - url: https://acs.bank.example/step2
            method: POST
            body: "<html><body><a href='https://shop.example.com/done' target=_top>Back to shop</a></body></html>"
        steps:
          - tap: Continue
          - tap: Back to shop
        expect: {outcome: complete}
        """
    }
}

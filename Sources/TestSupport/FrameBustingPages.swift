import Foundation

/// Pages where a framed document sends the top window elsewhere (the PSP's 3-D Secure page on psp.example.net frames
/// the bank's ACS or the PSP's own page), with what happens on iOS (WebKit) and Android (Chromium): the model's
/// table (FrameBustingTests) and both engines (SimulateEngineCLITests+FrameBusting) run the same pages.
public enum FrameBustingPages {
    public struct Case: Sendable {
        public var name: String
        public var frame: String
        public var body: String
        /// More pages (flow YAML list items, two-space indent).
        public var pages: String
        /// A `steps:` line, or "".
        public var steps: String
        /// `complete` or `stuck`, on each platform.
        public var ios: String
        public var android: String
    }

    public static let cases: [Case] = [
        Case(
            name: "the ACS frame's script sends the top window to the shop", frame: "https://acs.bank.example/cres",
            body: "<script>top.location.href = 'https://shop.example.com/complete';</script>", pages: "", steps: "",
            ios: "stuck", android: "stuck"),
        Case(
            name: "the ACS frame's script sends the top window to the PSP, which redirects to the shop",
            frame: "https://acs.bank.example/cres",
            body: "<script>top.location.href = 'https://psp.example.net/done';</script>",
            pages: """
                  - url: https://psp.example.net/done
                    status: 302
                    location: https://shop.example.com/complete
                """, steps: "", ios: "stuck", android: "complete"),
        Case(
            name: "the ACS frame submits a form to the shop in the top window", frame: "https://acs.bank.example/cres",
            body:
                "<form id='f' method='post' target='_top' action='https://shop.example.com/complete'></form><script>document.getElementById('f').submit();</script>",
            pages: "", steps: "", ios: "stuck", android: "stuck"),
        Case(
            name: "the PSP's own frame sends the top window to the shop", frame: "https://psp.example.net/notify",
            body: "<script>top.location.href = 'https://shop.example.com/complete';</script>", pages: "", steps: "",
            ios: "complete", android: "complete"),
        Case(
            name: "the user taps a link to the shop in the ACS frame", frame: "https://acs.bank.example/cres",
            body: "<a href='https://shop.example.com/complete' target='_top'>Back to the shop</a>", pages: "",
            steps: "steps: [tap: Back to the shop]", ios: "complete", android: "complete"),
        Case(
            name: "the ACS frame's script sends the top window to another host of the PSP's site",
            frame: "https://acs.bank.example/cres",
            body: "<script>top.location.href = 'https://pay.psp.example.net/back';</script>",
            pages: """
                  - url: https://pay.psp.example.net/back
                    body: "<script>location.href = 'https://shop.example.com/complete';</script>"
                """, steps: "", ios: "complete", android: "complete"),
        Case(
            name: "after the user's tap in the ACS frame, the frame's next page sends the top window to the shop",
            frame: "https://acs.bank.example/challenge",
            body: "<form method='post' action='/verify'><button type='submit'>Confirm</button></form>",
            pages: """
                  - url: https://acs.bank.example/verify
                    method: POST
                    body: "<script>top.location.href = 'https://shop.example.com/complete';</script>"
                """, steps: "steps: [tap: Confirm]", ios: "stuck", android: "complete"),
    ]

    /// The flow file of `c` on `platform`, with its expected outcome; both PSP hosts and the ACS are goodlisted.
    public static func flow(_ c: Case, platform: String, name: String = "frame-busting") -> String {
        """
        name: \(name)
        policy:
          platform: \(platform)
          paymentUrl: https://shop.example.com/pay
          completeUrl: https://shop.example.com/complete
          cancelUrl: https://shop.example.com/cancel
          goodlist: [psp.example.net, pay.psp.example.net, acs.bank.example]
        start: https://psp.example.net/3ds
        pages:
          - url: https://psp.example.net/3ds
            body: "<iframe src='\(c.frame)'></iframe>"
          - url: \(c.frame)
            body: "\(c.body)"
        \(c.pages)
        \(c.steps)
        expect: {outcome: \(platform == "ios" ? c.ios : c.android)}
        """
    }
}

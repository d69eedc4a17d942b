@testable import AppSwitch
import Foundation
@testable import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator

let minimalPolicy = """
    policy:
      platform: ios
      paymentUrl: https://shop.example.com/pay
      completeUrl: https://shop.example.com/complete
      cancelUrl: https://shop.example.com/cancel

    """

@Suite struct FlowLoaderTests {
    func parse(_ text: String) throws(ConfigError) -> Flow {
        try FlowLoader.parse(text, file: "flow.yaml", folder: Project.path("Pages/01-ios-card-3ds-goodlisted").path)
    }

    @Test func readsEveryPartOfAFlow() throws {
        let flow = try parse(
            minimalPolicy + """
                name: demo
                environment:
                  apps:
                    - name: Shop
                      schemes: [shopapp]
                      behaviour: {host: true}
                    - name: Swish
                      schemes: [swish]
                      behaviour: {returnTo: protocol}
                pages:
                  - url: https://shop.example.com/pay
                    in: webview
                    responses:
                      - body: "<html></html>"
                      - file: menu.html
                  - url: https://shop.example.com/go
                    method: post
                    location: /pay
                    setCookie: [a=1, b=2]
                    requireCookie: a
                steps:
                  - tap: Pay
                  - tap: {url: "https://shop.example.com/go"}
                  - accept
                  - decline
                  - app: Swish cancel
                  - app: {name: Swish, then: fail}
                assume:
                  universalLinks: {shop.example.com: [fails, works]}
                  missingApps: [Swish]
                  blockAutomaticRedirects: true
                expect:
                  outcome: complete
                  hops: 4
                  endsIn: webview
                  appsOpened: [Swish]
                  everyBranch: complete
                  branches:
                    - when: prompt-declined
                      outcome: stuck
                limits: {steps: 50, branches: 10}
                """)
        #expect(flow.name == "demo")
        #expect(flow.hostApp == "Shop")
        #expect(flow.start == "https://shop.example.com/pay")
        #expect(flow.pages.count == 2)
        #expect(flow.pages[0].context == .webview && flow.pages[0].responses.count == 2)
        #expect(flow.pages[1].method == "POST" && flow.pages[1].responses[0].status == 302)
        #expect(flow.pages[1].responses[0].headers("Set-Cookie") == ["a=1", "b=2"])
        #expect(
            flow.steps == [
                .tap(text: "Pay", url: nil), .tap(text: nil, url: "https://shop.example.com/go"), .accept, .decline,
                .app(name: "Swish", outcome: .cancel), .app(name: "Swish", outcome: .fail),
            ])
        #expect(flow.assumptions.universalLinks["shop.example.com"] == [false, true])
        #expect(flow.assumptions.missingApps == ["Swish"] && flow.assumptions.blockAutomaticAppRedirects)
        #expect(flow.expect.outcome == .complete && flow.expect.hops == 4 && flow.expect.branches.count == 1)
        #expect(flow.limits.steps == 50 && flow.limits.branches == 10 && flow.limits.repeats == Limits().repeats)
        #expect(flow.apps["Swish"]?.returnTo == .appSwitchProtocol)
    }

    struct Bad: Sendable, CustomStringConvertible {
        var yaml: String
        var key: String?
        var message: String
        var description: String { message }
    }

    static let bad: [Bad] = [
        Bad(yaml: minimalPolicy + "nmae: x\n", key: "nmae", message: "unknown key 'nmae'"),
        Bad(yaml: "name: x\n", key: "policy", message: "missing required key 'policy'"),
        Bad(yaml: minimalPolicy + "start: not a url\n", key: "start", message: "expected an absolute http(s) URL"),
        Bad(
            yaml: minimalPolicy + "pages:\n  - url: /relative\n", key: "pages[0].url", message: "expected an absolute http(s) URL"
        ),
        Bad(
            yaml: minimalPolicy + "pages:\n  - url: https://a.example/\n    file: missing.html\n", key: "pages[0].file",
            message: "cannot read the page file 'missing.html'"),
        Bad(
            yaml: minimalPolicy + "pages:\n  - url: https://a.example/\n    status: 302\n", key: "pages[0]",
            message: "needs a 'location'"),
        Bad(
            yaml: minimalPolicy + "pages:\n  - url: https://a.example/\n    colour: red\n", key: "pages[0].colour",
            message: "unknown key 'colour'"),
        Bad(
            yaml: minimalPolicy + "pages:\n  - url: https://a.example/\n    in: safari\n", key: "pages[0].in",
            message: "expected webview or browser"),
        Bad(yaml: minimalPolicy + "steps:\n  - jump\n", key: "steps[0]", message: "unknown step 'jump'"),
        Bad(
            yaml: minimalPolicy + "steps:\n  - app: Nobody complete\n", key: "steps",
            message: "names an app that is not in the environment"),
        Bad(
            yaml: minimalPolicy + "steps:\n  - tap: {text: a, url: b}\n", key: "steps[0].tap",
            message: "exactly one of 'text' or 'url'"),
        Bad(
            yaml: minimalPolicy + "expect:\n  outcome: done\n", key: "expect.outcome",
            message: "expected one of complete, canceled, stuck, loop, error"),
        Bad(
            yaml: minimalPolicy + "expect:\n  branches:\n    - when: [moon-phase]\n      outcome: stuck\n",
            key: "expect.branches[0].when", message: "unknown branch label 'moon-phase'"),
        Bad(
            yaml: minimalPolicy + "assume:\n  universalLinks: sometimes\n", key: "assume.universalLinks",
            message: "expected works or fails"),
        Bad(yaml: minimalPolicy + "limits: {steps: 0}\n", key: "limits.steps", message: "expected a number from 1 to 100000"),
        Bad(yaml: minimalPolicy + "environment: nowhere.yaml\n", key: "environment", message: "cannot read 'nowhere.yaml'"),
        Bad(yaml: "policy: [unclosed\n", key: nil, message: "invalid YAML/JSON"),
        Bad(yaml: minimalPolicy + "helpers: {publicUrl: ftp://shop.example.com}\n", key: "helpers", message: "public-url"),
        Bad(yaml: minimalPolicy + "hooks: {completed: loop}\n", key: "hooks.completed", message: "expected complete or canceled"),
    ]

    @Test(arguments: bad)
    func badFlowFilesAreErrorsNamingTheKey(_ b: Bad) {
        do {
            _ = try parse(b.yaml)
            Issue.record("accepted: \(b.yaml)")
        } catch {
            #expect(error.file == "flow.yaml")
            #expect(error.key == b.key, "\(error)")
            #expect(error.message.contains(b.message), "\(error)")
        }
    }

    @Test func unknownKeyErrorsCarryTheLine() {
        do {
            _ = try parse(minimalPolicy + "name: x\nexpect:\n  outcome: complete\n  ends: webview\n")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 9, "\(error)")
            #expect(error.description.hasPrefix("flow.yaml:9: expect.ends: unknown key 'ends'"))
        }
    }

    @Test func discoverFindsFlowFoldersInOrderAndRejectsMissingPaths() throws {
        let found = try FlowLoader.discover([Project.path("Pages").path])
        #expect(found.count >= 8)
        let folders = found.map { (($0 as NSString).deletingLastPathComponent as NSString).lastPathComponent }
        #expect(folders == folders.sorted())
        #expect(found.allSatisfy { $0.hasSuffix("/flow.yaml") })
        #expect(throws: ConfigError.self) { try FlowLoader.discover(["/no/such/folder"]) }
        let empty = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ConfigError.self) { try FlowLoader.discover([empty.path]) }
    }
}

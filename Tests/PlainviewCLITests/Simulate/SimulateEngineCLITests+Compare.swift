import Foundation
import Testing
import TestSupport

/// `--engine compare:ENGINE` compares the model with one engine; `compare` also compares the engines with each
/// other; both print each side's time.
extension SimulateEngineCLITests {
    @Test(arguments: engines) func compareCanNameOneEngineAndSaysHowLongEachSideTook(engine: String) async throws {
        guard Self.present(engine) else { return }
        let other = engine == "chromium" ? "webkit" : "chromium"
        let r = try await Self.cli(
            [
                "simulate", "--engine", "compare:\(engine)", "Pages/11-android-runtime-navigation",
                "Pages/01-ios-card-3ds-goodlisted",
            ],
            timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.contains("model:") && r.stdoutLines.contains("\(engine):"), "\(r)")
        #expect(!r.stdoutLines.contains("\(other):"), "\(r)")
        #expect(r.stdoutLines.contains("compare: model vs \(engine)"), "\(r)")
        let differences = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(differences.count == 1, "\(r)")
        #expect(differences.first?.contains("android-runtime-navigation [default] model vs \(engine)") == true, "\(r)")
        let times = r.stdoutLines.first { $0.hasPrefix("compare: times ") } ?? ""
        #expect(
            times.range(
                of:
                    #"^compare: times model [0-9.]+ s \([0-9.]+ s per run, 2 runs\) · \#(engine) [0-9.]+ s \([0-9.]+ s per run, 2 runs\)$"#,
                options: .regularExpression) != nil, "\(r)")
        let json = try await Self.cli(
            ["simulate", "--engine", "compare:\(engine)", "--json", "Pages/01-ios-card-3ds-goodlisted"], timeout: 300)
        #expect(json.status == 0, "\(json)")
        #expect(json.stdoutLines.contains { $0.hasPrefix(#"{"times":[{"side":"model","milliseconds":"#) }, "\(json)")
        #expect(json.stdoutLines.contains { $0.contains(#"{"side":"\#(engine)","milliseconds":"#) }, "\(json)")
    }

    /// Issue 33: the Chrome recording of a 3-D Secure challenge in an iframe replays to the same outcome and hops in
    /// the model and both engines.
    @Test func aRecordedChallengeInAnIframeReplaysAlikeInTheModelAndBothEngines() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let har = "Tests/FlowImportTests/Fixtures/har/chrome_3ds_iframe.har"
        let policy = "Tests/FlowImportTests/Fixtures/har/policy-ios.yaml"
        let r = try await Self.cli(["simulate", "--engine", "compare", "--policy", policy, har], timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdoutLines.filter { $0.hasPrefix("PASS  chrome_3ds_iframe  complete in web view · 9 hops") }.count == 3, "\(r)")
        #expect(r.stdoutLines.contains("compare: 1 flow, 0 differ (0 differences)"), "\(r)")
    }

    @Test func compareSetsTheTwoEnginesAgainstEachOtherToo() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        // A page only WebKit navigates from: `navigator.vendor` is "Apple Computer, Inc." in WebKit, "Google Inc." in
        // Chromium, and the model reads the script's navigation as unconditional.
        let flow = try Self.flow(
            "vendor-sniffing",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<script>if (navigator.vendor.indexOf('Apple') === 0) location.href = 'https://shop.example.com/done';</script>"
            expect: {outcome: complete}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", flow.path], timeout: 300)
        let lines = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(lines.contains { $0.contains("vendor-sniffing [default] model vs chromium") }, "\(r)")
        #expect(!lines.contains { $0.contains("model vs webkit") }, "\(r)")
        #expect(
            lines.contains { $0.contains("vendor-sniffing [default] chromium vs webkit: hop 2: chromium stops (stuck") }, "\(r)")
        #expect(
            r.stdoutLines.contains {
                $0.hasPrefix("compare: times model ") && $0.contains(" · chromium ") && $0.contains(" · webkit ")
            }, "\(r)")
    }

    /// WebKit carries out a refresh under a second itself and gives its navigation no type of its own: it is still
    /// a `refresh`, as Chromium and the model say.
    @Test func aRefreshUnderASecondIsARefreshInEveryMode() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let flow = try Self.flow(
            "quick-refreshes",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<meta http-equiv=refresh content='0; url=https://shop.example.com/next'>Redirecting"
              - url: https://shop.example.com/next
                body: "<meta http-equiv=refresh content='0.5;url=https://shop.example.com/done'>"
            expect: {outcome: complete, hops: 3}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", "--verbose", flow.path], timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("compare: 1 flow, 0 differ (0 differences)"), "\(r)")
        #expect(r.stdout.components(separatedBy: "[main, refresh]").count - 1 == 6, "two refreshes in each of three modes: \(r)")
    }

    /// A tapped `target=_blank` link reaches the app as a new-window navigation in every mode (Chromium reports it
    /// as a window opening, not as a frame navigation); on Android without multiple windows it loads in place.
    @Test(arguments: ["ios", "android"]) func aTappedBlankLinkIsANewWindowInEveryMode(platform: String) async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let flow = try Self.flow(
            "blank-link-\(platform)", platform: platform,
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<a href='https://help.example.org/terms' target=_blank>Terms</a>"
              - url: https://help.example.org/terms
                body: "Terms"
            steps:
              - tap: Terms
            expect: {outcome: stuck}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", "--verbose", flow.path], timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("compare: 1 flow, 0 differ (0 differences)"), "\(r)")
        let hop = platform == "ios" ? "[new-window, link, tap]" : "[main, link, tap]"
        #expect(r.stdout.components(separatedBy: "GET https://help.example.org/terms  \(hop)").count - 1 == 3, "\(r)")
    }
}

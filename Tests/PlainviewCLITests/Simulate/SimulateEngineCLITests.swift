import FlowSimulator
import Foundation
import PlainviewEngines
import Testing
import TestSupport

/// Engine mode for real: headless Chromium, and WebKitGTK under Xvfb, render the web view. Where an engine is absent
/// the tests say so and pass; under CI=true a missing engine is a failure.
@Suite(.serialized) struct SimulateEngineCLITests {
    static let engines = ["chromium", "webkit"]

    /// True when the engine is here; otherwise prints why the test does nothing (and fails it under CI).
    static func present(_ engine: String) -> Bool {
        let missing: String? =
            engine == "chromium"
            ? (ChromiumEngine.locate() == nil ? "Chromium is not installed (apt-get install chromium-headless-shell)" : nil)
            : WebKitEngine.missing()
        guard let missing else { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("CI=true but \(missing): .ci/run installs it")
        } else {
            print("skipped: \(missing); \(engine) engine-mode tests did not run")
        }
        return false
    }

    static func chromiumPresent() -> Bool { present("chromium") }

    /// Runs the CLI off Swift's cooperative pool: these runs take minutes, and a blocked pool thread starves the
    /// in-process servers of other suites running meanwhile.
    static func cli(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) async throws -> CLIResult {
        try await offPool { try CLI.run(arguments, environment: environment, timeout: timeout) }
    }

    /// A flow folder with the shop's usual policy (see `TestFlow.folder`).
    static func flow(_ name: String, platform: String = "ios", _ rest: String) throws -> URL {
        try TestFlow.folder(name, platform: platform, rest)
    }

    @Test func aMissingEngineIsAnInputErrorNamingTheDebianPackage() async throws {
        let r = try await Self.cli(
            ["simulate", "--engine", "chromium", "Pages/01-ios-card-3ds-goodlisted"],
            environment: ["PLAINVIEW_CHROMIUM": "/nonexistent/chromium"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("apt-get install chromium-headless-shell"), "\(r)")
    }

    @Test func aMissingWebKitOrXvfbIsAnInputErrorNamingTheDebianPackage() async throws {
        guard WebKitEngine.locateDriver() != nil || ProcessInfo.processInfo.environment["CI"] == "true" else {
            print("skipped: plainview-webkit is not built")
            return
        }
        let library = try await Self.cli(
            ["simulate", "--engine", "webkit", "Pages/01-ios-card-3ds-goodlisted"],
            environment: ["PLAINVIEW_WEBKIT_LIBRARY": "/nonexistent/libwebkit2gtk-4.1.so.0"])
        #expect(library.status == 64, "\(library)")
        #expect(library.stderr.contains("apt-get install libwebkit2gtk-4.1-0 xvfb"), "\(library)")
        #expect(library.stderr.contains("libwebkit2gtk-4.1-0"), "\(library)")
        let display = try await Self.cli(
            ["simulate", "--engine", "webkit", "Pages/01-ios-card-3ds-goodlisted"],
            environment: ["PATH": "/nonexistent", "DISPLAY": ""])
        #expect(display.status == 64, "\(display)")
        #expect(display.stderr.contains("`xvfb`"), "\(display)")
    }

    @Test(arguments: engines) func theShippedPagesPassInEachEngine(engine: String) async throws {
        guard Self.present(engine) else { return }
        let r = try await Self.cli(["simulate", "--engine", engine], timeout: 900)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.last?.hasSuffix("passed, 0 failed") == true, "\(r)")
    }

    @Test(arguments: engines) func theShippedPagesPassInEachEngineExplored(engine: String) async throws {
        guard Self.present(engine) else { return }
        let r = try await Self.cli(["simulate", "--engine", engine, "--explore"], timeout: 1800)
        #expect(r.status == 0, "\(r)")
    }

    @Test func compareShowsTheRuntimeNavigationFlowPartingWaysAndNoneOfTheOthers() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let r = try await Self.cli(
            [
                "simulate", "--engine", "compare", "Pages/11-android-runtime-navigation",
                "Pages/01-ios-card-3ds-goodlisted", "Pages/06-ios-swish-app-switch",
            ], timeout: 300)
        #expect(r.status == 0, "\(r)")
        // The model's summary, then each engine's, then the differences: one per engine, on the runtime flow only.
        for section in ["model:", "chromium:", "webkit:"] { #expect(r.stdoutLines.contains(section), "\(r)") }
        let differences = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(differences.count == 2, "\(r)")
        for (difference, engine) in zip(differences, ["chromium", "webkit"]) {
            #expect(difference.contains("android-runtime-navigation [default] model vs \(engine)"), "\(r)")
            #expect(difference.contains("hop 2: model stops (stuck"), "\(r)")
            #expect(
                difference.contains("\(engine) webview GET https://shop.example.com/payment-completed [main, script]"), "\(r)")
        }
        let json = try await Self.cli(
            ["simulate", "--engine", "compare", "--json", "Pages/11-android-runtime-navigation"], timeout: 300)
        #expect(json.status == 0, "\(json)")
        let lines = json.stdoutLines
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(json)")
        for engine in ["chromium", "webkit"] {
            #expect(
                lines.contains {
                    $0.hasPrefix(
                        #"{"difference":{"flow":"android-runtime-navigation","branch":"default","engine":"\#(engine)","outcomeDiffers":true,"firstHop":2"#
                    )
                }, "\(json)")
        }
    }

    @Test func compareExploredAgreesOnEveryOtherShippedFlow() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let r = try await Self.cli(["simulate", "--engine", "compare", "--explore"], timeout: 2400)
        #expect(r.status == 0, "\(r)")
        let differences = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(differences.allSatisfy { $0.contains("android-runtime-navigation") }, "\(r)")
    }

    /// The third-party cookie rule is the world's (it answers the engines' requests from one cookie jar): both
    /// engines stop at the ACS frame's "session expired" where the model does, and complete the control.
    @Test func bothEnginesAgreeWithTheModelOnAThirdPartyFrameCookie() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let r = try await Self.cli(
            [
                "simulate", "--engine", "compare", "Examples/web-view-rules/acs-frame-cookie",
                "Examples/web-view-rules/acs-frame-cookie-fixed",
            ], timeout: 300)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("compare: 2 flows, 0 differ"), "\(r)")
        #expect(r.stdoutLines.filter { $0.hasPrefix("FAIL  acs-frame-cookie ") }.count == 3, "\(r)")
        #expect(r.stdoutLines.filter { $0.hasPrefix("PASS  acs-frame-cookie-fixed") }.count == 3, "\(r)")
    }

    /// A tap is the user's in both engines (WebKit's is a real pointer click): a window the tapped button opens,
    /// by an `onclick` attribute or by a click listener, reaches the app as a new window on iOS, as the model has
    /// it, and the payment completes there.
    @Test func aWindowATappedButtonOpensOpensInBothEngines() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let attribute = try Self.flow(
            "window-by-attribute",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<p>Order 1001</p><button onclick=\\"window.open('https://shop.example.com/done')\\">Pay</button>"
            steps:
              - tap: Pay
            expect: {outcome: complete, hops: 2}
            """)
        let listener = try Self.flow(
            "window-by-listener",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<p>Order 1001</p><button id=pay>Pay</button><script>document.getElementById('pay').addEventListener('click', () => window.open('https://shop.example.com/done'))</script>"
            steps:
              - tap: Pay
            expect: {outcome: complete, hops: 2}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", attribute.path, listener.path], timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("compare: 2 flows, 0 differ"), "\(r)")
        #expect(r.stdoutLines.filter { $0.hasPrefix("PASS  window-by-") }.count == 6, "\(r)")
    }

    /// After an awaited request, WebKit's popup blocker has no user activation left (the model's iOS rule), while a
    /// main-frame navigation then still counts as the user's in WebKitGTK; Chromium keeps the activation (its 5 s
    /// rule, the model's Android one) even in an iOS flow. What docs/environment.md says of the engines.
    @Test func webKitKeepsNoActivationForAWindowAfterAnAwaitedRequest() async throws {
        guard Self.present("webkit"), Self.present("chromium") else { return }
        func flow(_ name: String, _ then: String, _ outcome: String) throws -> URL {
            try Self.flow(
                name,
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<button id=pay>Pay</button><script>document.getElementById('pay').addEventListener('click', async () => { await fetch('https://shop.example.com/state'); \(then) })</script>"
                  - url: https://shop.example.com/state
                    body: "{}"
                steps:
                  - tap: Pay
                expect: {outcome: \(outcome)}
                """)
        }
        let popup = try flow("popup-after-fetch", "window.open('https://shop.example.com/done')", "stuck")
        let same = try flow("navigation-after-fetch", "location.href = 'https://shop.example.com/done'", "complete")
        let dir = try Project.temporaryDirectory()
        let trace = dir.appendingPathComponent("trace.jsonl").path
        let r = try await Self.cli(
            ["simulate", "--engine", "compare:webkit", "--trace", trace, popup.path, same.path], timeout: 300)
        // The window: blocked in the model (iOS) and in WebKit alike; Chromium opens it.
        #expect(!r.stdout.contains("OUTCOME  popup-after-fetch"), "\(r)")
        let chromium = try await Self.cli(["simulate", "--engine", "compare:chromium", popup.path], timeout: 300)
        #expect(chromium.stdout.contains("OUTCOME  popup-after-fetch [default] model vs chromium"), "\(chromium)")
        // The navigation: WebKit reports it as the user's (compare's trace holds the engine's runs).
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains(#""flow":"navigation-after-fetch""#) && $0.contains(#""event":"navigate""#)
                    && $0.contains(#""url":"https://shop.example.com/done""#) && $0.contains(#""gesture":true"#)
            }, "\(lines.filter { $0.contains("navigation-after-fetch") && $0.contains("done") })")
    }

    @Test(arguments: engines) func tracesRecordTheEnginesNavigations(engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Project.temporaryDirectory()
        let trace = dir.appendingPathComponent("trace.jsonl").path
        let r = try await Self.cli(
            ["simulate", "--engine", engine, "--trace", trace, "Pages/11-android-runtime-navigation"], timeout: 300)
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains(#""url":"https://shop.example.com/payment-completed""#), "\(text)")
    }

    /// A 30 s timer, a 60 s meta refresh and a 60 s `Refresh` header fire within a 20 s bound: each engine
    /// fast-forwards them (Chromium's virtual time, WebKit's injected script); a real-time wait would end the run in
    /// error instead.
    @Test(
        arguments: engines,
        [
            (
                "timer", "<script>setTimeout(function () { location.href = 'https://shop.example.com/done'; }, 30000);</script>",
                "{}"
            ),
            ("refresh", "<meta http-equiv=refresh content='60; url=https://shop.example.com/done'>", "{}"),
            ("header", "", #"{Refresh: "60; url=https://shop.example.com/done"}"#),
        ])
    func longTimersAndRefreshesAreFastForwarded(engine: String, page: (name: String, html: String, headers: String)) async throws
    {
        guard Self.present(engine) else { return }
        let dir = try Self.flow(
            "slow-\(page.name)",
            """
            pages:
              - url: https://shop.example.com/pay
                headers: \(page.headers)
                body: "<html><head>\(page.html)</head><body>Waiting</body></html>"
            expect: {outcome: complete, hops: 2}
            """)
        let trace = dir.appendingPathComponent("trace.jsonl").path
        let r = try await Self.cli(
            ["simulate", "--engine", engine, "--engine-timeout", "20", "--trace", trace, dir.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains(#""url":"https://shop.example.com/done""#), "\(text)")
    }

    /// A refused navigation leaves the page where it was, and the page goes on: here a script first tries an app no
    /// one installed (the policy blocks it), and the page's later timer still reaches completeUrl.
    @Test(arguments: engines) func aRefusedNavigationKeepsThePageAndItsScriptsRunning(engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Self.flow(
            "refused-then-complete",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>location.href = 'nosuchapp://pay?id=1'; setTimeout(function () { location.href = 'https://shop.example.com/done'; }, 20000);</script></body></html>"
            expect: {outcome: complete, hops: 3}
            """)
        let r = try await Self.cli(["simulate", "--engine", engine, "--verbose", dir.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("navigate GET nosuchapp://pay?id=1  [main, script]"), "\(r)")
        #expect(r.stdout.contains("decide   → block  (custom-scheme.no-app)"), "\(r)")
    }

    /// A plain-http navigation is asked about as http (no engine upgrades it to https, as Android's WebView and
    /// WKWebView do not): the policy sends it to the browser, in every mode alike.
    @Test(arguments: ["model"] + engines) func aPlainHTTPNavigationIsAskedAsHTTP(engine: String) async throws {
        guard engine == "model" || Self.present(engine) else { return }
        let dir = try Self.flow(
            "plain-http",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>location.href = 'http://shop.example.com/insecure';</script></body></html>"
              - url: http://shop.example.com/insecure
                in: browser
                body: "<html><body>Plain</body></html>"
            expect: {outcome: stuck, endsIn: browser}
            """)
        let r = try await Self.cli(["simulate", "--engine", engine, "--verbose", dir.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("navigate GET http://shop.example.com/insecure  [main, script]"), "\(r)")
        #expect(r.stdout.contains("(web.insecure)"), "\(r)")
    }

    /// Taps reach the 3-D Secure frame among others, its form posts inside it, and its `target=_top` link leaves it;
    /// every engine tells the frames apart as the model does (compare: no difference). A frame is numbered by its
    /// place among the page's frames (as `window.frames` is), not by when its request arrives:
    /// - `two-frames`: two cross-origin frames, which WebKit under load once asked about in reverse order;
    /// - `blank-frame-first`: a frame with no `src` (about:blank, which makes no request) comes first, so the 3-D
    ///   Secure frame is `window.frames[1]` though its request is the page's first (WebKit numbered frames in
    ///   request order and tapped into the blank frame).
    @Test(arguments: [
        (
            "two-frames",
            "<iframe src='https://ads.example.net/banner'></iframe><iframe src='https://acs.bank.example/step1'></iframe>"
        ),
        ("blank-frame-first", "<iframe></iframe><iframe src='https://acs.bank.example/step1'></iframe>"),
    ])
    func tapsReachTheirFrameAmongSeveralInEveryEngine(name: String, frames: String) async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let dir = try Self.flow(name, TestFlow.frames(frames))
        let r = try await Self.cli(["simulate", "--engine", "compare", "--verbose", dir.path], timeout: 180)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  no difference"), "\(r)")
        #expect(
            r.stdout.components(separatedBy: "navigate POST https://acs.bank.example/step2  [sub, form, tap]").count == 4, "\(r)")
    }

    /// An app URL as a frame's `src` (BankID's `<iframe src="bankid:///…">`) is a sub-frame's navigation in every
    /// engine, so Android's rule for sub-frames (no app without a user gesture) applies alike.
    @Test func anAppURLInAFrameIsTheSubFramesInEveryEngine() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let dir = try Self.flow(
            "bankid-frame", platform: "android",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><p>Open BankID</p><iframe src='bankid:///?autostarttoken=abc&redirect=null'></iframe></body></html>"
            expect: {outcome: stuck}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", "--verbose", dir.path], timeout: 180)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  no difference"), "\(r)")
        #expect(
            r.stdout.components(separatedBy: "navigate GET bankid:///?autostarttoken=abc&redirect=null  [sub, initial]").count
                == 4, "\(r)")
        #expect(r.stdout.components(separatedBy: "(subframe.no-gesture)").count == 4, "\(r)")
    }

    /// A data: document loads in a frame that names it (its script reaches the page) but never at the top: the
    /// page's attempt to replace itself with one is refused and the page stays.
    @Test(arguments: engines) func aDataDocumentLoadsInAFrameButNeverAtTheTop(engine: String) async throws {
        guard Self.present(engine) else { return }
        let framed = try Self.flow(
            "data-frame",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>window.onmessage = function () { location.href = 'https://shop.example.com/done'; };</script><iframe src='data:text/html,%3Cscript%3Eparent.postMessage(1,%22*%22)%3C/script%3E'></iframe></body></html>"
            expect: {outcome: complete}
            """)
        let top = try Self.flow(
            "data-top",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>location.href = 'data:text/html,%3Cscript%3Elocation.href=%22https://shop.example.com/done%22%3C/script%3E';</script></body></html>"
            expect: {outcome: stuck, endsIn: webview}
            """)
        let r = try await Self.cli(["simulate", "--engine", engine, framed.path, top.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  data-frame  complete in web view"), "\(r)")
        #expect(r.stdout.contains("stuck in web view: the web view shows https://shop.example.com/pay;"), "\(r)")
        #expect(r.stdout.contains("PASS  data-top"), "\(r)")
    }

    @Test(arguments: engines) func aHungPageEndsItsRunInErrorAndTheNextFlowStillRuns(engine: String) async throws {
        guard Self.present(engine) else { return }
        let hung = try Self.flow(
            "hung-page", platform: "android",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>while (true) {}</script></body></html>"
            expect: {outcome: error, reasonContains: "no outcome within 4 s"}
            """)
        let r = try await Self.cli(
            [
                "simulate", "--engine", engine, "--engine-timeout", "4", hung.path,
                Project.path("Pages/01-ios-card-3ds-goodlisted").path,
            ], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  hung-page"), "\(r)")
        #expect(r.stdout.contains("PASS  ios-card-3ds-goodlisted"), "\(r)")
    }

    /// The engine dies in the middle of a run (here the WebKit driver is killed while its page spins): that run
    /// ends in `error` naming what happened, long before its time bound, and the next flow gets a new engine.
    /// One job: the second flow then needs the restarted engine, and the killer cannot mistake the other job's
    /// driver for this one (a web process that loads a page passes 0.3 s of CPU too, on this machine as early as
    /// the spinning one; under `--jobs 2` it was sometimes the driver killed, and the spinning page ended as hung).
    @Test func anEngineThatDiesEndsItsRunInErrorAndIsRestarted() async throws {
        guard Self.present("webkit") else { return }
        let hung = try Self.flow(
            "engine-dies",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>while (true) {}</script></body></html>"
            expect: {outcome: error, reasonContains: "webkit: the engine process exited"}
            """)
        // Kills the first new driver whose page spins (the suite is serialized: no other test starts an engine
        // meanwhile). Drivers of earlier tests that are still shutting down are not this run's.
        let earlier = Set(Self.webKitDrivers())
        let killer = Thread {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                // Once the page spins: a web process under the driver has used 0.3 s of CPU. Killing then, not after
                // a fixed sleep, stays inside the 8 s after which a page that stops answering counts as hung even when
                // a loaded machine runs this thread late; killing before the load would be a failed start.
                if let pid = Self.webKitDrivers().first(where: { !earlier.contains($0) && Self.hasSpinningDescendant(of: $0) }) {
                    kill(pid, SIGKILL)
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        killer.start()
        let started = Date()
        let r = try await Self.cli(
            [
                "simulate", "--engine", "webkit", "--jobs", "1", "--engine-timeout", "40", hung.path,
                Project.path("Pages/01-ios-card-3ds-goodlisted").path,
            ], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  engine-dies"), "\(r)")
        #expect(r.stdout.contains("PASS  ios-card-3ds-goodlisted"), "\(r)")
        #expect(Date().timeIntervalSince(started) < 35, "the dead engine was noticed at once, not at the 40 s bound")
    }

    /// The process ids of the running `plainview-webkit` drivers.
    static func webKitDrivers() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            guard let cmd = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8) else { return false }
            return cmd.hasSuffix("plainview-webkit\u{0}")
        }
    }

    /// True when a process descended from `pid` (WebKit's web process, perhaps under a sandbox launcher) has used
    /// at least 0.3 s of CPU: the page's endless script is running.
    static func hasSpinningDescendant(of pid: Int32) -> Bool {
        var parents: [Int32: Int32] = [:], cpu: [Int32: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let p = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command: state, ppid, …, utime (14th field overall), stime (15th).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let ppid = Int32(fields[1]), let u = Int(fields[11]), let k = Int(fields[12]) else {
                continue
            }
            parents[p] = ppid
            cpu[p] = u + k
        }
        let ticks = Int(sysconf(Int32(_SC_CLK_TCK)))
        for (p, used) in cpu where used * 10 >= ticks * 3 && p != pid {
            var q = parents[p], depth = 0
            while let parent = q, depth < 6 {
                if parent == pid { return true }
                q = parents[parent]
                depth += 1
            }
        }
        return false
    }

    @Test(arguments: engines) func theUserAgentBranchIsTheEnginesAndAFlowCanChangeIt(engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Project.temporaryDirectory()
        let folder = dir.appendingPathComponent("desktop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Project.path("Pages/11-android-runtime-navigation/menu.html"),
            to: folder.appendingPathComponent("menu.html"))
        try Data(
            """
            name: desktop-user-agent
            policy: {platform: android, paymentUrl: "https://shop.example.com/pay", completeUrl: "https://shop.example.com/payment-completed", cancelUrl: "https://shop.example.com/payment-canceled"}
            userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"
            pages:
              - {url: "https://shop.example.com/pay", file: menu.html}
            expect: {outcome: canceled, hops: 2}

            """.utf8
        ).write(to: folder.appendingPathComponent("flow.yaml"))
        let r = try await Self.cli(["simulate", "--engine", engine, folder.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  desktop-user-agent  canceled in web view"), "\(r)")
    }

    @Test(
        arguments: engines,
        [
            ("completed", "window.webkit.messageHandlers.completed.postMessage('ok')", "complete"),
            ("ShopApp.canceled", "window.ShopApp.canceled()", "canceled"),
        ])
    func aPageCallingAnAppHookEndsTheRunSo(engine: String, hook: (name: String, call: String, outcome: String)) async throws {
        guard Self.present(engine) else { return }
        let (hook, call, outcome) = hook
        let dir = try Self.flow(
            "hook-\(outcome)",
            """
            hooks: {\(hook): \(outcome)}
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>var f = function () { \(call); }; setTimeout(f, 20000);</script></body></html>"
            expect: {outcome: \(outcome), hops: 1}
            """)
        let r = try await Self.cli(["simulate", "--engine", engine, "--verbose", dir.path], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("JavaScript hook '\(hook)'"), "\(r)")
    }
}

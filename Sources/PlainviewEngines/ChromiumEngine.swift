// Chromium (the engine of Android's WebView) as the host app's web view, driven over the DevTools protocol on
// `--remote-debugging-pipe`. One headless browser process serves a whole `simulate` call; each run (branch) gets
// its own browser context (no shared cookies, cache or history) with one page, closed when the run ends.
import FlowSimulator
import Foundation

public final class ChromiumEngine: WebEngine {
    public let name = "chromium"
    /// The Debian package that provides the engine (named in the missing-engine error): the headless shell, which
    /// `locate()` prefers; the `chromium` browser works too.
    public static let debianPackage = "chromium-headless-shell"
    /// The Chromium binary this engine runs.
    public let executable: String
    private let runner: EngineRunner
    private var profile: String { runner.scratch }

    /// Finds the Chromium binary: `PLAINVIEW_CHROMIUM`, else Chromium's headless shell
    /// (`chromium-headless-shell`), else the browser (`chromium` / `chromium-browser`) on PATH.
    ///
    /// The headless shell comes first. It is Chromium's engine embedded through the content layer, as Android's
    /// WebView embeds it, without the desktop browser's own layer (`//chrome`: its windows, tab UI, protocol
    /// dialogs and per-profile services). Chromium's WebView documentation (android_webview/README.md) calls
    /// WebView a content embedder that does not depend on `//chrome`; Chrome's headless documentation says the
    /// old headless mode, now the separate `chrome-headless-shell`, never shared it. Every run here creates a
    /// browser context and a page, and that layer made each one costly: the shipped Pages explored took 107 s
    /// with the browser and 34 s with the shell on this project's 2-core machine, with identical verdicts
    /// (Benchmarks/README.md).
    public static func locate() -> String? {
        if let given = ProcessInfo.processInfo.environment["PLAINVIEW_CHROMIUM"], !given.isEmpty {
            return EngineProcess.locate([given])
        }
        return EngineProcess.locate(["chromium-headless-shell", "chromium", "chromium-browser"])
    }

    /// How many engines `simulate --jobs` starts when not told: one per core. A Chromium run is busy on the CPU
    /// (the browser, a renderer per branch and their I/O threads, with timers on virtual time): one engine already
    /// keeps 1.5 cores busy on this project's 2-core machine, where two engines take 0.8 of the serial time
    /// (Benchmarks/README.md).
    public static func defaultJobs(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int { max(1, cores) }

    /// Fails with `missingEngine` (the message names the Debian package) when no Chromium is installed.
    /// `executable` names the binary to run (a name on PATH or a path); nil: `locate()`.
    public init(timeout: TimeInterval = 60, executable: String? = nil) throws(EngineFailure) {
        guard let executable = executable.map({ EngineProcess.locate([$0]) }) ?? Self.locate() else {
            throw EngineFailure(
                .missingEngine,
                "--engine chromium needs Chromium, which is not installed: install the Debian package "
                    + "`\(Self.debianPackage)` (apt-get install \(Self.debianPackage)), or the browser `chromium`, "
                    + "or set PLAINVIEW_CHROMIUM to its binary")
        }
        self.executable = executable
        runner = EngineRunner(name: "chromium", timeout: timeout)
    }

    deinit { shutdown() }

    public func open(_ flow: Flow) throws(EngineFailure) -> any EngineSession {
        try runner.open(start: start) { [timeout = runner.timeout] connection, deadline, onBroken throws(EngineFailure) in
            try ChromiumSession(connection: connection, flow: flow, deadline: deadline, timeout: timeout, onBroken: onBroken)
        }
    }

    /// Ends the browser process (and its helpers) and removes its profile. The next `open` starts a new one.
    public func shutdown() { runner.shutdown() }

    /// Starts the browser (in a fresh profile folder).
    private func start() throws(EngineFailure) -> CDPConnection {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = profile
        let process = try EngineProcess(
            executable: executable,
            arguments: [
                "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--user-data-dir=\(profile)/data", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                "--disable-breakpad", "--password-store=basic", "--use-mock-keychain",
                // One renderer for every frame, as in Android's WebView (no site isolation): the driver sees and taps
                // cross-origin frames through the page's own session.
                "--disable-site-isolation-trials",
                // Android's WebView does not upgrade http navigations to https (desktop Chromium's HttpsUpgrades does).
                "--disable-features=IsolateOrigins,site-per-process,Translate,MediaRouter,HttpsUpgrades",
                "about:blank",
            ], environment: env, log: profile + "/chromium.log")
        let c = CDPConnection(process: process)
        do {
            // Start-up has its own bound: a loaded machine may take seconds to start a browser.
            _ = try c.call("Browser.getVersion", deadline: Date().addingTimeInterval(30))
        } catch {
            c.markClosed()
            process.terminate()
            throw EngineFailure(.startFailed, "Chromium (\(executable)) did not answer on its DevTools pipe: \(error.message)")
        }
        return c
    }
}

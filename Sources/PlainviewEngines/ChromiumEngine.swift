// Chromium (the engine of Android's WebView) as the host app's web view, driven over the DevTools protocol on
// `--remote-debugging-pipe`. One headless browser process serves a whole `simulate` call; each run (branch) gets
// its own browser context (no shared cookies, cache or history) with one page, closed when the run ends.
import FlowSimulator
import Foundation

public final class ChromiumEngine: WebEngine {
    public let name = "chromium"
    /// The Debian package that provides the engine (named in the missing-engine error).
    public static let debianPackage = "chromium"
    let executable: String
    /// Real seconds one run (branch) may take before it ends in `error` and the engine is restarted.
    let timeout: TimeInterval
    private var connection: CDPConnection?
    private let profile: String

    /// Finds the Chromium binary: `PLAINVIEW_CHROMIUM`, else `chromium` / `chromium-browser` on PATH.
    public static func locate() -> String? {
        if let given = ProcessInfo.processInfo.environment["PLAINVIEW_CHROMIUM"], !given.isEmpty {
            return EngineProcess.locate([given])
        }
        return EngineProcess.locate(["chromium", "chromium-browser"])
    }

    /// Fails with `missingEngine` (the message names the Debian package) when no Chromium is installed.
    public init(timeout: TimeInterval = 60) throws(EngineFailure) {
        guard let executable = Self.locate() else {
            throw EngineFailure(.missingEngine, "--engine chromium needs Chromium, which is not installed: install the Debian package "
                                + "`\(Self.debianPackage)` (apt-get install \(Self.debianPackage)) or set PLAINVIEW_CHROMIUM to its binary")
        }
        self.executable = executable
        self.timeout = timeout
        profile = NSTemporaryDirectory() + "plainview-chromium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    deinit { shutdown() }

    public func open(_ flow: Flow) throws(EngineFailure) -> any EngineSession {
        let deadline = Date().addingTimeInterval(timeout)
        let connection = try running()
        do {
            return try ChromiumSession(connection: connection, flow: flow, deadline: deadline, timeout: timeout) { [weak self] in
                self?.shutdown()
            }
        } catch {
            shutdown()
            throw error
        }
    }

    /// Ends the browser process (and its helpers) and removes its profile. The next `open` starts a new one.
    public func shutdown() {
        guard let c = connection else { return }
        connection = nil
        c.markClosed()
        c.process.terminate()
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// The running browser, started (or restarted after a crash or a hang) when needed.
    private func running() throws(EngineFailure) -> CDPConnection {
        if let c = connection, c.broken == nil, c.process.isRunning { return c }
        shutdown()
        try? FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = profile
        let process = try EngineProcess(executable: executable, arguments: [
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
        connection = c
        do {
            // Start-up has its own bound: a loaded machine may take seconds to start a browser.
            _ = try c.call("Browser.getVersion", deadline: Date().addingTimeInterval(30))
        } catch {
            shutdown()
            throw EngineFailure(.startFailed, "Chromium (\(executable)) did not answer on its DevTools pipe: \(error.message)")
        }
        return c
    }
}

// WebKitGTK (the engine family of iOS's WKWebView) as the host app's web view. `plainview-webkit`, a separate
// executable built with Plainview, loads WebKitGTK 4.1 at run time, runs a GTK web view under its own Xvfb and
// speaks the same NUL-framed JSON as Chromium's DevTools pipe on fds 3 and 4. One driver process serves a whole
// `simulate` call; each run (branch) gets a fresh web view with its own ephemeral data (no shared cookies, cache or
// history).
import FlowSimulator
import Foundation

public final class WebKitEngine: WebEngine {
    public let name = "webkit"
    /// The Debian packages the engine needs (named in the missing-engine error).
    public static let debianPackages = ["libwebkit2gtk-4.1-0", "xvfb"]
    let driverPath: String
    private let runner: EngineRunner
    private var scratch: String { runner.scratch }

    /// Finds the driver: `PLAINVIEW_WEBKIT_DRIVER`, else `plainview-webkit` beside the running executable (where
    /// SwiftPM builds it), else on PATH.
    public static func locateDriver() -> String? {
        if let given = ProcessInfo.processInfo.environment["PLAINVIEW_WEBKIT_DRIVER"], !given.isEmpty {
            return EngineProcess.locate([given])
        }
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("plainview-webkit").path
            if let found = EngineProcess.locate([beside]) { return found }
        }
        return EngineProcess.locate(["plainview-webkit"])
    }

    /// Why the engine cannot run here (nil: it can, as far as files tell): no driver, no WebKitGTK 4.1, no Xvfb.
    public static func missing() -> String? {
        if locateDriver() == nil { return "plainview-webkit is not built (swift build)" }
        let libraries = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"]
        if !libraries.contains(where: { FileManager.default.fileExists(atPath: $0 + "/libwebkit2gtk-4.1.so.0") }) {
            return "WebKitGTK 4.1 is not installed (apt-get install libwebkit2gtk-4.1-0)"
        }
        if EngineProcess.locate(["Xvfb"]) == nil { return "Xvfb is not installed (apt-get install xvfb)" }
        return nil
    }

    /// How many engines `simulate --jobs` starts when not told: two per core. A WebKit run waits on real time
    /// (a page counts as settled after 0.4 s with nothing happening, see WebKitSession), so one engine keeps 0.7
    /// cores busy on average (the shipped Pages explored on this project's 2-core machine), where four engines
    /// took 0.43 of the serial time and two 0.61 (Benchmarks/README.md).
    public static func defaultJobs(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int { 2 * max(1, cores) }

    /// Fails with `missingEngine` when the driver is not built or WebKitGTK (or Xvfb) is not installed; the message
    /// names the Debian package.
    public init(timeout: TimeInterval = 60) throws(EngineFailure) {
        guard let driverPath = Self.locateDriver() else {
            throw EngineFailure(
                .missingEngine,
                "--engine webkit needs plainview-webkit, which is built with plainview (swift build) "
                    + "and is not beside it or on PATH; set PLAINVIEW_WEBKIT_DRIVER to its path")
        }
        self.driverPath = driverPath
        runner = EngineRunner(name: "webkit", timeout: timeout)
        // Start now: a missing WebKit is an input error before any flow runs.
        _ = try runner.running(start)
    }

    deinit { shutdown() }

    public func open(_ flow: Flow) throws(EngineFailure) -> any EngineSession {
        try runner.open(start: start) { [timeout = runner.timeout] connection, deadline, onBroken throws(EngineFailure) in
            try WebKitSession(connection: connection, flow: flow, deadline: deadline, timeout: timeout, onBroken: onBroken)
        }
    }

    /// Ends the driver, its Xvfb and WebKit's helper processes (one process group). The next `open` starts a new one.
    public func shutdown() { runner.shutdown() }

    /// Starts the driver and checks it can run WebKit.
    private func start() throws(EngineFailure) -> CDPConnection {
        var env = ProcessInfo.processInfo.environment
        // WebKit's caches and GTK's settings stay in the run's scratch folder.
        env["HOME"] = scratch
        env["XDG_CACHE_HOME"] = scratch + "/cache"
        env["XDG_DATA_HOME"] = scratch + "/data"
        env["XDG_CONFIG_HOME"] = scratch + "/config"
        // The driver starts its own Xvfb unless told to use a display (PLAINVIEW_WEBKIT_DISPLAY).
        env["DISPLAY"] = env["PLAINVIEW_WEBKIT_DISPLAY"] ?? ""
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let process = try EngineProcess(executable: driverPath, arguments: [], environment: env, log: scratch + "/webkit.log")
        let c = CDPConnection(process: process)
        let stop = {
            c.markClosed()
            process.terminate()
        }
        let hello: [String: Any]
        do {
            hello = try c.call("Driver.hello", deadline: Date().addingTimeInterval(30))
        } catch {
            stop()
            throw EngineFailure(.startFailed, "the WebKit driver (\(driverPath)) did not answer: \(error.message)")
        }
        if let package = hello["missing"] as? String {
            stop()
            throw EngineFailure(
                .missingEngine,
                "--engine webkit needs WebKitGTK 4.1 and Xvfb: \(hello["message"] as? String ?? "") — "
                    + "install the Debian package `\(package)` (apt-get install \(Self.debianPackages.joined(separator: " ")))")
        }
        return c
    }
}

import PaymentURLHelpers
import ArgumentParser
import Foundation
import Logging
import NavigationPolicy
import PlainviewServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the payment-url helper endpoints (and the recorded Pages) over HTTP.",
        discussion: """
            Endpoints (under --root): sdk-callback/android-intent, sdk-callback/ios-universal-link, \
            sdk-callback/trampoline (the back-link page); at the host root: \
            /.well-known/apple-app-site-association and /.well-known/assetlinks.json. Generated URLs use \
            --public-url, never the Host header. The iOS ladder redirects only to an --app-scheme.

            Logs go to stderr at --log-level (default info): a refused request (4xx other than 404) is a \
            warning, every request line is debug. Connections past --max-connections wait in the backlog \
            (with a warning); idle, slow-header and slow-request connections are closed after their \
            timeouts. SIGINT/SIGTERM stop the server cleanly (exit 0).
            """
    )

    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free one (printed as 'listening on URL').") var port = 8080
    @Option(help: "Path where the helpers are mounted, e.g. /swedbank-pay-mobile/.") var root = "/"
    @Option(
        name: .customLong("public-url"),
        help: "Public base (http(s)://host[:port]) for generated URLs (default: the bound address).")
    var publicURL: String?
    @Option(
        name: .customLong("trampoline-url"),
        help:
            "Public base where the back-link page is reached; should be another host than --public-url for iOS (default: --public-url)."
    )
    var trampolineURL: String?
    @Option(name: .customLong("app-id"), help: "TEAMID.bundle.id for apple-app-site-association (repeatable).")
    var appIDs: [String] = []
    @Option(name: .customLong("android-package"), help: "Android package for assetlinks.json.")
    var androidPackage: String?
    @Option(name: .customLong("sha256-cert"), help: "SHA-256 signing-certificate fingerprint for assetlinks.json (repeatable).")
    var sha256Certs: [String] = []
    @Option(
        name: .customLong("app-scheme"),
        help:
            "The app's own custom URL scheme; ios-universal-link redirects to no other (repeatable; none given: any custom scheme but the OS's own, such as itms-services, facetime, tel)."
    )
    var appSchemes: [String] = []
    @Option(help: "A Pages folder: serve each flow folder's HTML files at /<flow>/<file>.") var pages: String?
    @Option(
        name: .customLong("max-connections"),
        help: "Connections open at once; more wait in the listen backlog (default: the open-file limit less 256, at most 10000).")
    var maxConnections: Int?
    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may stay open with no request in progress.")
    var idleTimeout = ServerLimits().idleTimeout
    @Option(name: .customLong("header-timeout"), help: "Seconds from a request's first byte to its complete head.")
    var headerTimeout = ServerLimits().headerTimeout
    @Option(name: .customLong("read-timeout"), help: "Seconds from a request's first byte to its last.")
    var readTimeout = ServerLimits().readTimeout
    @Option(
        name: .customLong("log-level"),
        help: "trace, debug (every request), info, notice, warning (refused requests), error or critical.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.root = root
        options.publicURL = publicURL
        options.trampolineURL = trampolineURL
        options.appIDs = appIDs
        options.androidPackage = androidPackage
        options.sha256CertFingerprints = sha256Certs
        options.pagesDirectory = pages
        options.appSchemes = appSchemes
        options.limits.maxConnections = maxConnections
        options.limits.idleTimeout = idleTimeout
        options.limits.headerTimeout = headerTimeout
        options.limits.readTimeout = readTimeout
        let level = logLevel
        var logger = Logger(label: "plainview.serve") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        logger.logLevel = level
        ServerLimits.raiseOpenFileLimit()
        let server: PlainviewServer.Runnable
        do {
            server = try PlainviewServer.runnable(options: options, logger: logger) { info in
                var line = "listening on \(info.url)"
                if info.publicURL != info.url { line += " (public \(info.publicURL))" }
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch let error as HelperConfigurationError {
            throw inputError("--\(error.key): \(error.message)")
        }
        do {
            try await server.run()
        } catch {
            printError("error: the server stopped: \(error)")
            throw Exit.expectationFailed
        }
    }
}

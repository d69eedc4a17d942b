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
            Endpoints (under --root): sdk-callback/android-intent, sdk-callback/ios-universal-link,
            sdk-callback/trampoline (the back-link page); at the host root: /.well-known/apple-app-site-association
            and /.well-known/assetlinks.json. Generated URLs use --public-url, never the Host header.
            One log line per request goes to stderr. SIGINT/SIGTERM stop the server cleanly (exit 0).
            """
    )

    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free one (printed as 'listening on URL').") var port = 8080
    @Option(help: "Path where the helpers are mounted, e.g. /swedbank-pay-mobile/.") var root = "/"
    @Option(name: .customLong("public-url"), help: "Public base (http(s)://host[:port]) for generated URLs (default: the bound address).")
    var publicURL: String?
    @Option(name: .customLong("trampoline-url"), help: "Public base where the back-link page is reached; should be another host than --public-url for iOS (default: --public-url).")
    var trampolineURL: String?
    @Option(name: .customLong("app-id"), help: "TEAMID.bundle.id for apple-app-site-association (repeatable).")
    var appIDs: [String] = []
    @Option(name: .customLong("android-package"), help: "Android package for assetlinks.json.")
    var androidPackage: String?
    @Option(name: .customLong("sha256-cert"), help: "SHA-256 signing-certificate fingerprint for assetlinks.json (repeatable).")
    var sha256Certs: [String] = []
    @Option(help: "A Pages folder: serve each flow folder's HTML files at /<flow>/<file>.") var pages: String?

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
        var logger = Logger(label: "plainview.serve") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        logger.logLevel = .info
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

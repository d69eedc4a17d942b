import ArgumentParser
import PlainviewServer

struct CheckBackend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-backend",
        abstract: "Probe a running backend's payment-url helper endpoints.",
        discussion: """
            URL is the backend's root endpoint (where sdk-callback/… is mounted). Walks the Android page and the
            iOS ladder as a device would (redirects are never followed automatically; only URLs under URL and the
            origin's /.well-known/ files are fetched), validates apple-app-site-association and assetlinks.json,
            and sends bad parameters expecting RFC 7807 problems. One PASS/FAIL/WARN line per check; exit 1 on
            any FAIL.
            """
    )

    @Argument(help: "The backend's root endpoint, e.g. https://shop.example.com/swedbank-pay-mobile/.") var url: String
    @Option(help: "Package name sent to the Android helper.") var package = "com.example.plainview"
    @Option(help: "Custom scheme sent to the iOS helper.") var scheme = "plainviewcheck"
    @Option(help: "Language sent to the iOS helper.") var language = "en-US"
    @Option(name: .customLong("app-id"), help: "Expect this TEAMID.bundle.id in apple-app-site-association.") var appID: String?
    @Option(name: .customLong("android-package"), help: "Expect assetlinks.json to delegate to this package.") var androidPackage: String?
    @Option(help: "Seconds to wait for each response.") var timeout: Int64 = 10

    func run() async throws {
        var options = BackendCheckOptions(baseURL: url)
        options.package = package
        options.scheme = scheme
        options.language = language
        options.expectedAppID = appID
        options.expectedAndroidPackage = androidPackage
        options.timeoutSeconds = max(1, timeout)
        let checker: BackendChecker
        do {
            checker = try BackendChecker(options: options)
        } catch let error as BackendCheckError {
            throw inputError(error.description)
        }
        let results = await checker.run()
        for r in results { print(r.description) }
        let failed = results.filter { $0.outcome == .fail }.count
        let warned = results.filter { $0.outcome == .warn }.count
        print("\(results.count - failed - warned) passed, \(failed) failed, \(warned) warnings")
        if failed > 0 { throw Exit.expectationFailed }
    }
}

import ArgumentParser
import PlainviewServer
import BackendChecker

struct CheckBackend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-backend",
        abstract: "Probe a running backend's payment-url helper endpoints.",
        discussion: """
            URL is the backend's root endpoint (where sdk-callback/… is mounted), as this machine reaches it;
            --public-url is the origin the backend puts in the URLs it generates (default: URL's origin). Walks
            the Android page and the iOS ladder as a device would (redirects are never followed automatically;
            only URLs under URL and the origin's /.well-known/ files are fetched), validates
            apple-app-site-association (served as application/json) and assetlinks.json (with --android-cert-sha256:
            listing the app's certificate), fetches the phone-facing pages again with iPhone and Android browser and
            web view User-Agents, offers the back-link page foreign and look-alike targets, sends bad parameters
            expecting RFC 7807 problems, and injects hostile values (HTML, attribute, unquoted attribute, JavaScript
            string, intent, query, javascript:, CR/LF; raw, percent-encoded and double-encoded) into every parameter
            each endpoint uses. One PASS/WARN/FAIL/SKIP line per check with
            the URL fetched and what came back. FAIL: a defect a user or attacker can reach; WARN: good practice
            missing; SKIP: an earlier step failed. Exit 1 on any FAIL, else 0.
            """
    )

    @Argument(help: "The backend's root endpoint, e.g. https://shop.example.com/swedbank-pay-mobile/.") var url: String
    @Option(
        name: .customLong("public-url"),
        help: "Origin (http(s)://host[:port]) the backend generates URLs for, when it differs from URL's.")
    var publicURL: String?
    @Option(help: "Package name sent to the Android helper.") var package = "com.example.plainview"
    @Option(help: "Custom scheme sent to the iOS helper; one the backend accepts as the app's (serve's --app-scheme).")
    var scheme = "plainviewcheck"
    @Option(help: "Language sent to the iOS helper.") var language = "en-US"
    @Option(name: .customLong("app-id"), help: "Expect this TEAMID.bundle.id in apple-app-site-association.") var appID: String?
    @Option(name: .customLong("android-package"), help: "Expect assetlinks.json to delegate to this package.") var androidPackage:
        String?
    @Option(
        name: .customLong("android-cert-sha256"),
        help: ArgumentHelp(
            "Expect assetlinks.json to list this SHA-256 signing-certificate fingerprint (AB:CD:… as keytool prints it); repeatable.",
            valueName: "fingerprint"))
    var androidCertSHA256: [String] = []
    @Option(help: "Seconds to wait for each response.") var timeout: Int64 = 10

    func run() async throws {
        var options = BackendCheckOptions(baseURL: url)
        options.publicURL = publicURL
        options.package = package
        options.scheme = scheme
        options.language = language
        options.expectedAppID = appID
        options.expectedAndroidPackage = androidPackage
        options.expectedAndroidCertSHA256 = androidCertSHA256
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
        let skipped = results.filter { $0.outcome == .skip }.count
        print("\(results.count - failed - warned - skipped) passed, \(failed) failed, \(warned) warnings, \(skipped) skipped")
        if failed > 0 { throw Exit.expectationFailed }
    }
}

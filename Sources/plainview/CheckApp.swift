import AppConfiguration
import ArgumentParser
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewSupport

struct CheckApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-app",
        abstract: "Check that every return the policy and the flows rely on reaches the app, from its own files.",
        discussion: """
            Reads the app's Info.plist and entitlements (iOS) and AndroidManifest.xml (Android), and the \
            apple-app-site-association and assetlinks.json its domains serve (files). The returns are the policy's \
            paymentUrl, its callbackScheme form, completeUrl and cancelUrl, every URL the OS hands to the host app \
            in the flows given (every branch: Swish's callbackurl, BankID's redirect, ROAMpay X's hostURL, the \
            return pages' links), and each --return.
            Exit status: 64 when an input is bad (the message names the file, line and what was expected), \
            else 1 when a check failed, else 0.
            """
    )

    @Option(help: "The policy file (YAML or JSON).") var policy: String
    @Option(name: .customLong("flows"), help: "A flow folder, flow file or folder of flows whose returns to check (repeatable).")
    var flows: [String] = []
    @Option(name: .customLong("return"), help: "Another URL that must reach the app (repeatable).") var returns: [String] = []

    @Option(name: .customLong("info-plist"), help: "iOS: the app's Info.plist (XML).") var infoPlist: String?
    @Option(help: "iOS: the app's .entitlements file (XML).") var entitlements: String?
    @Option(name: .customLong("app-id"), help: "iOS: TEAMID.bundle.id, when the entitlements do not spell it out.")
    var appID: String?
    @Option(help: ArgumentHelp("iOS: the apple-app-site-association HOST serves (repeatable).", valueName: "HOST=FILE"))
    var aasa: [String] = []

    @Option(help: "Android: the app's AndroidManifest.xml (as written, or merged by the build).") var manifest: String?
    @Option(help: "Android: the application id, when the manifest has no package attribute.") var package: String?
    @Option(help: ArgumentHelp("Android: the assetlinks.json HOST serves (repeatable).", valueName: "HOST=FILE"))
    var assetlinks: [String] = []
    @Option(
        name: .customLong("android-cert-sha256"),
        help: "Android: the SHA-256 fingerprint of the app's signing certificate (keytool's AB:CD:… form; repeatable).")
    var androidCertSHA256: [String] = []

    @Flag(help: "Print the findings as JSON.") var json = false

    func validate() throws {
        guard infoPlist != nil || entitlements != nil || manifest != nil else {
            throw ValidationError("give the app's files: --info-plist and --entitlements (iOS), --manifest (Android), or both")
        }
        for fp in androidCertSHA256 where AssetLinks.normalizeFingerprint(fp) == nil {
            throw ValidationError(
                "--android-cert-sha256 \(fp): expected 32 bytes as 64 hex digits (AB:CD:… as keytool prints it)")
        }
    }

    func run() async throws {
        let check: AppCheck
        do {
            check = try makeCheck()
        } catch let error as AppConfigurationError {
            throw inputError(error.description)
        } catch let error as ConfigError {
            throw inputError(error.description)
        }
        let findings = check.run()
        if json {
            var writer = JSONWriter(.pretty)
            writer.value(.array(findings.map(Self.json)))
            print(String(decoding: writer.bytes, as: UTF8.self))
        } else {
            for f in findings { print(f.text) }
            let count = { (v: AppCheckFinding.Verdict) in findings.filter { $0.verdict == v }.count }
            print("\(count(.pass)) passed, \(count(.warn)) warnings, \(count(.fail)) failed")
        }
        if findings.contains(where: { $0.verdict == .fail }) { throw Exit.expectationFailed }
    }

    private func makeCheck() throws -> AppCheck {
        let loaded = try PolicyFile.load(path: policy, platform: nil)
        var returns = AppCheck.returns(of: loaded)
        returns += self.returns.map { AppReturn(url: $0, why: "--return", need: .required) }
        returns += try flowReturns()
        var ios: AppCheck.IOS?
        if infoPlist != nil || entitlements != nil {
            let configuration = try IOSAppConfiguration.read(
                infoPlist: try infoPlist.map { ($0, try Self.bytes($0)) },
                entitlements: try entitlements.map { ($0, try Self.bytes($0)) })
            var served: [AppCheck.Served<AppSiteAssociation>] = []
            for entry in aasa {
                let (host, file) = try Self.hostAndFile(entry, option: "--aasa")
                do {
                    served.append(
                        .init(host: host, file: file, document: try AppSiteAssociation(json: try Self.bytes(file), domain: host)))
                } catch let error as AppSiteAssociationError {
                    throw AppConfigurationError(file: file, message: error.description)
                }
            }
            ios = AppCheck.IOS(configuration: configuration, appID: appID, aasa: served)
        }
        var android: AppCheck.Android?
        if let manifest {
            let read = try AndroidManifest.read(try Self.bytes(manifest), file: manifest)
            var served: [AppCheck.Served<AssetLinks>] = []
            for entry in assetlinks {
                let (host, file) = try Self.hostAndFile(entry, option: "--assetlinks")
                do {
                    served.append(.init(host: host, file: file, document: try AssetLinks(json: try Self.bytes(file))))
                } catch let error as AssetLinksError {
                    throw AppConfigurationError(file: file, message: error.description)
                }
            }
            android = AppCheck.Android(
                manifest: read, package: package, assetLinks: served,
                certificates: androidCertSHA256.compactMap(AssetLinks.normalizeFingerprint))
        }
        let hosts = loaded.allowedHosts.filter { !$0.contains("*") && !$0.hasPrefix("http://") }
        return AppCheck(returns: returns, webViewHosts: hosts, ios: ios, android: android)
    }

    /// The URLs the OS hands to the host app in every branch of the flows (the `launch` events naming it).
    private func flowReturns() throws -> [AppReturn] {
        guard !flows.isEmpty else { return [] }
        let loaded = LoadedFlows.loadEach(flows, har: nil)
        if let problem = loaded.problems.first { throw AppConfigurationError(file: problem.path, message: problem.message) }
        var out: [AppReturn] = []
        for flow in loaded.flows {
            for branch in Simulator.explore(flow).branches {
                // The launch names the intent's data URI; the `intent:` URL that carried it (its action and
                // package decide which filter takes it) is the last one the branch navigated to.
                var lastIntent: String?
                for e in branch.events {
                    if let url = e.url, url.lowercased().hasPrefix("intent:") { lastIntent = url }
                    guard e.event == .launch, e.app == flow.hostApp, var url = e.url else { continue }
                    if e.via == "intent", let intent = lastIntent,
                        (try? AndroidIntent.parse(intent))?.data == url
                    {
                        url = intent
                    }
                    out.append(
                        AppReturn(
                            url: url, why: "flow \(flow.name) (\(branch.branch), by \(e.via ?? "the OS"))", need: .required,
                            platform: flow.policy.platform))
                }
            }
        }
        return out
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AppConfigurationError(file: path, message: "cannot be read (no such file, or not readable)")
        }
        return [UInt8](data)
    }

    static func hostAndFile(_ entry: String, option: String) throws -> (String, String) {
        guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex, entry.index(after: eq) != entry.endIndex else {
            throw ValidationError("\(option) \(entry): expected HOST=FILE (shop.example.com=apple-app-site-association)")
        }
        return (String(entry[..<eq]), String(entry[entry.index(after: eq)...]))
    }

    static func json(_ f: AppCheckFinding) -> JSONValue {
        .object([
            ("platform", .string(f.platform)), ("verdict", .string(f.verdict.rawValue)), ("subject", .string(f.subject)),
            ("message", .string(f.message)), ("file", f.file.map(JSONValue.string)), ("line", f.line.map(JSONValue.int)),
        ])
    }
}

// apple-app-site-association and assetlinks.json, as the phones' verifiers fetch them.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

extension BackendChecker {
    // MARK: - Well-known files

    func checkAASA(_ client: HTTPClient, _ report: inout Report) async {
        let name = "apple-app-site-association"
        let helperPath = "\(basePath)\(HelperEndpoints.iosPath)"
        let url = "\(origin)\(HelperEndpoints.aasaPath)"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else { report.fail(name, "expected 200 application/json (no redirect), \(r.summary)"); return }
            // Apple's requirement: the file is served with Content-Type application/json (not text/html or text/plain).
            guard r.contentType.hasPrefix("application/json") else {
                report.fail(
                    name,
                    "expected Content-Type application/json (Apple requires the file to be served as application/json, over https, without redirects): \(r.summary)"
                )
                return
            }
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: r.body)
            } catch {
                report.fail(name, "not a valid apple-app-site-association (\(error)): \(r.summaryWithBody)")
                return
            }
            if aasa.appIDs.isEmpty {
                report.warn(name, "declares no app (applinks.details is empty): \(r.summaryWithBody)"); return
            }
            // The same matcher the policy engine uses for universal links, asked about a real helper URL.
            let probe = "https://\(Self.aasaProbeHost)\(helperPath)?scheme=plainview&language=en-US&id=plainview-check-0001"
            let covering = aasa.appIDs.filter { aasa.verdict(appID: $0, url: probe) == .match }
            if covering.isEmpty {
                report.fail(
                    name,
                    "no details entry covers \(helperPath), where the helpers are mounted (paths/components not under the mount point?): \(r.summaryWithBody)"
                )
            } else if let want = options.expectedAppID, !covering.contains(want) {
                report.fail(
                    name,
                    "\(want) is not listed for \(helperPath) (listed: \(Set(aasa.appIDs).sorted().joined(separator: ", "))): \(r.summary)"
                )
            } else {
                report.pass(name, "\(r.summary): \(helperPath) is claimed for \(Set(covering).sorted().joined(separator: ", "))")
            }
        }
    }

    /// AASA matching looks at path, query and fragment only; any https host stands in for the backend's.
    static let aasaProbeHost = "backend.invalid"

    func checkAssetLinks(_ client: HTTPClient, _ report: inout Report) async {
        let name = "assetlinks.json"
        let url = "\(origin)\(HelperEndpoints.assetLinksPath)"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else {
                report.fail(name, "missing assetlinks.json: expected 200 application/json, \(r.summary)"); return
            }
            let links: AssetLinks
            do {
                links = try AssetLinks(json: Array(r.body.utf8))
            } catch {
                report.fail(name, "\(error) (expected AB:CD:… upper-case fingerprints, 32 bytes): \(r.summaryWithBody)")
                return
            }
            let packages = links.packages
            let notChecked =
                expectedCertificates.isEmpty
                ? "; certificate fingerprint not checked (give the app's with --android-cert-sha256)" : ""
            if packages.isEmpty {
                report.warn(name, "valid, but delegates no app (no handle_all_urls statement): \(r.summaryWithBody)\(notChecked)")
                return
            }
            if let want = options.expectedAndroidPackage, !packages.contains(want) {
                report.fail(name, "\(want) is not delegated (found: \(packages.joined(separator: ", "))): \(r.summary)")
                return
            }
            // The certificates listed for the expected package (any delegated package when none was named).
            let apps = options.expectedAndroidPackage.map { [$0] } ?? packages
            let listed = apps.flatMap { links.fingerprints(for: $0) }
            let missing = expectedCertificates.filter { !listed.contains($0) }
            if !missing.isEmpty {
                report.fail(
                    name,
                    "the app's signing certificate is not listed, so Android will not verify the app links: expected \(missing.joined(separator: ", ")) in sha256_cert_fingerprints of \(apps.joined(separator: ", ")), found \(listed.joined(separator: ", ")): \(r.summary)"
                )
            } else if expectedCertificates.isEmpty {
                report.pass(name, "\(r.summary): delegates handle_all_urls to \(packages.joined(separator: ", "))\(notChecked)")
            } else {
                report.pass(
                    name,
                    "\(r.summary): delegates handle_all_urls to \(apps.joined(separator: ", ")) signed with \(expectedCertificates.joined(separator: ", "))"
                )
            }
        }
    }
}

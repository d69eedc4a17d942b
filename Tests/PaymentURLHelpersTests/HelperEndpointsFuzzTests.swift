@testable import PaymentURLHelpers
@testable import PlainviewURL
@testable import AppSwitch
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

@Suite("Fuzz: helper endpoints")
struct HelperEndpointsFuzzTests {
    static let endpoints: HelperEndpoints? = try? HelperEndpoints(
        configuration: HelperEndpointsConfiguration(
            publicURL: "https://shop.example.com", root: "/swedbank-pay-mobile/", appIDs: ["ABCDE12345.com.example.shop"],
            androidPackage: "com.example.shop", sha256CertFingerprints: [String(repeating: "ab", count: 32)]))

    static let seeds = [
        "/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53",
        "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US",
        "/swedbank-pay-mobile/sdk-callback/ios-universal-link?fallback=true&scheme=s&language=sv-SE&id=7",
        "/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fx&language=da-DK",
        "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/nothing-here?x=1",
    ]

    /// Markers that are only harmless when escaped: a raw `"`, `'` or `<` between `x` and `zq` breaks out of
    /// an attribute or opens a tag.
    static let markers = ["x\"zq", "x'zq", "x<zq"]
    static let dictionary =
        markers + markers.map { AppSwitchEncoding.encodeComponent($0) } + [
            "&", "=", "?", "#", "%", "%0D%0A", "\r\n", "%00", "javascript:", "<script>", "%3Cscript%3E", "package=",
            "scheme=", "language=", "target=", "fallback=", "id=", "https%3A%2F%2Fevil.example%2F", "//", "/../", "é", "%C3",
        ]

    @Test(arguments: [UInt64(1), 2, 3])
    func responsesEscapeWhatTheyEchoAndCarrySafeHeaders(seed: UInt64) throws {
        let endpoints = try #require(Self.endpoints)
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var ok = 0
        for _ in 0..<800 {
            let target = fuzz.mutant(of: Self.seeds, maxSteps: 3)
            let r = endpoints.respond(to: HelperRequest(method: fuzz.rng.pick(["GET", "GET", "HEAD", "POST"]), target: target))
            if r.status == 200 || r.status == 302 { ok += 1 }
            if !(200...599).contains(r.status) { fuzz.findings.record("status \(r.status)", input: target) }
            for h in r.headers
            where h.name.isEmpty || (h.name + h.value).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                fuzz.findings.record(
                    "a header holds a control character (response splitting)", input: target, detail: "\(h.name): \(h.value)")
            }
            // Location: an absolute URL (https, or the app's own scheme for the iOS fallback), never a script
            // or local scheme, never with blanks.
            if let location = r.header("location") {
                let scheme = AndroidIntent.scheme(of: location)
                if scheme == nil || ["javascript", "data", "file", "vbscript"].contains(scheme ?? "") || location.contains(" ") {
                    fuzz.findings.record("Location is not a safe absolute URL", input: target, detail: location)
                }
            }
            let type = r.header("content-type") ?? ""
            if type.hasPrefix("text/html") {
                for marker in Self.markers where r.body.contains(marker) {
                    fuzz.findings.record("HTML echoes \(marker.debugDescription) unescaped", input: target)
                }
            }
            if type.contains("json"), !r.body.isEmpty, (try? JSONSerialization.jsonObject(with: Data(r.body.utf8))) == nil {
                fuzz.findings.record("a JSON response is not JSON", input: target, detail: String(r.body.prefix(200)))
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(ok > 5, "too few mutated requests succeed to exercise the pages (\(ok))")
    }
}

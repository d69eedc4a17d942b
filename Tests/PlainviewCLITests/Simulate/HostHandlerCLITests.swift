import Foundation
import Testing
import TestSupport

/// Three publicly reported failures of payments in Android web views, as flows (Examples/host-apps): each fails
/// under the reporter's host-app handler with the reported symptom, and passes under Plainview's policy.
@Suite struct HostHandlerCLITests {
    static let folder = Project.path("Examples/host-apps").path

    @Test func eachReportFailsUnderItsAppsHandlerAsReported() async throws {
        let r = try await offPool { try CLI.run(["simulate", Self.folder]) }
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("3 flows: 0 passed, 3 failed"), "\(r)")
        // Cap-go/capacitor-inappbrowser #206, pagopa/io-app #7294, apache/cordova-android #1171.
        for symptom in [
            "host:in-app-browser: the web view cannot load intent: URLs and shows net::ERR_UNKNOWN_URL_SCHEME",
            "host:allow-list: intent://authorize is not in originWhitelist: Linking.openURL",
            "host:cordova: Cordova's startActivity finds no app for the intent (ActivityNotFoundException) and ignores its S.browser_fallback_url",
        ] {
            #expect(r.stdout.contains(symptom), "missing: \(symptom)\n\(r)")
        }
    }

    @Test func underThePolicyEveryReportCompletes() async throws {
        let r = try await offPool { try CLI.run(["simulate", Self.folder, "--host-handler", "plainview", "--explore"]) }
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("3 flows: 3 passed, 0 failed"), "\(r)")
    }

    @Test func anUnknownHandlerIsAUsageError() async throws {
        let r = try await offPool { try CLI.run(["simulate", Self.folder, "--host-handler", "webkit"]) }
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("--host-handler: expected one of plainview, none, guide, in-app-browser, cordova, allow-list"),
            "\(r)")
    }
}

/// Reports that come from the phone's own rules, as flows (Examples/web-view-rules), each with its control:
/// pwa-builder/PWABuilder #2439 (App-Bound Domains keep the 3-D Secure page from loading) and LivotovLabs/3DSView
/// #39 (the app ended while the user approves in the bank's app), ActiveLogin/ActiveLogin.Authentication #251 (Chrome
/// restores the tab after launching BankID from a redirect chain), stripe/stripe-ios #3083 (a universal-link return
/// from SFSafariViewController), breez/glow-web #235 (a universal link followed
/// after an awaited request, without the tap's activation), swedenconnect/bankid-saml-idp #165 (BankID on iOS with
/// redirect=null, Chrome the default browser), and an ACS frame on another site that needs its cookie (third-party
/// cookies).
@Suite struct WebViewRulesCLITests {
    @Test func eachReportFailsAsReportedAndItsControlCompletes() async throws {
        let r = try await offPool { try CLI.run(["simulate", Project.path("Examples/web-view-rules").path]) }
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("14 flows: 7 passed, 7 failed"), "\(r)")
        #expect(r.stdout.contains("FAIL  bankid-saml-idp-165 "), "\(r)")
        #expect(r.stdout.contains("BankID on iOS does not switch back by itself when redirect=null"), "\(r)")
        #expect(r.stdout.contains("the user has to go back to Chrome by hand"), "\(r)")
        #expect(r.stdout.contains("PASS  bankid-saml-idp-165-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  stripe-ios-3083 "), "\(r)")
        #expect(
            r.stdout.contains("Shop opens the page in SFSafariViewController"), "\(r)")
        #expect(r.stdout.contains("PASS  stripe-ios-3083-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  activelogin-251 "), "\(r)")
        #expect(r.stdout.contains("Chrome restores the tab to https://login.idp.example/landing"), "\(r)")
        #expect(r.stdout.contains("PASS  activelogin-251-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  glow-web-235 "), "\(r)")
        #expect(
            r.stdout.contains(
                "without the user's activation (it waited on a network answer, and WebKit's user activation does not survive one)"
            ),
            "\(r)")
        #expect(r.stdout.contains("PASS  glow-web-235-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  acs-frame-cookie "), "\(r)")
        #expect(r.stdout.contains("the web view sent no cookie 'acs_tx' to https://acs.bank.example/3ds/challenge"), "\(r)")
        #expect(r.stdout.contains("PASS  acs-frame-cookie-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  pwabuilder-2439 "), "\(r)")
        #expect(r.stdout.contains("acs4.sparebank1.no is not an app-bound domain"), "\(r)")
        #expect(r.stdout.contains("PASS  pwabuilder-2439-fixed"), "\(r)")
        #expect(r.stdout.contains("FAIL  3dsview-39 "), "\(r)")
        #expect(r.stdout.contains("the host app was ended while away and comes back without a URL"), "\(r)")
        #expect(r.stdout.contains("PASS  3dsview-39-fixed"), "\(r)")
    }

    @Test func exploreShowsTheKilledAppAsABranch() async throws {
        let r = try await offPool {
            try CLI.run(["simulate", Project.path("Examples/web-view-rules/3dsview-39").path, "--explore"])
        }
        #expect(r.stdout.contains("host-killed: stuck in web view: the host app was ended while away"), "\(r)")
        #expect(r.stdout.contains("default: complete"), "\(r)")
    }
}

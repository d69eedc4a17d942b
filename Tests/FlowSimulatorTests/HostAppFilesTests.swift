import Foundation
import NavigationPolicy
import Testing
import TestSupport

@testable import FlowSimulator

/// The host app's own files as the simulated phone's configuration (`manifest`, `infoPlist`, `entitlements` in
/// the environment): the OS routes returns by what they say, so a defect in them fails the flow.
@Suite struct HostAppFilesTests {
    /// Pages/07's checkout with the bank app installed: the bank returns through the browser and the Android
    /// return page's `intent:` URL (Swedbank Pay's action, the app's package), or an app link.
    static func androidFlow(manifest: String) throws -> Flow {
        let pages = Project.path("Pages").path
        return try FlowLoader.parse(
            """
            name: files
            policy: \(pages)/common/android-policy.yaml
            environment:
              apps:
                - name: Shop
                  manifest: \(manifest)
                  behaviour: {host: true}
                - name: Bank
                  package: com.bank.example
                  schemes: [bankapp]
                  behaviour: {then: complete, returnTo: {queryParameter: return}}
            pages:
              - url: https://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=7f3e9a
                in: webview
                responses:
                  - file: \(pages)/07-android-intent-fallback/menu.html
                  - file: \(pages)/common/menu-paid.html
              - url: https://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=7f3e9a
                in: browser
                file: \(pages)/common/android-intent.html
            steps:
              - tap: Pay with the Bank app
            expect:
              outcome: complete
            """, file: "flow.yaml", folder: Project.root.path)
    }

    /// A copy of the example app's manifest with `edits` applied.
    static func manifest(_ edits: [(String, String)] = []) throws -> String {
        var text = try String(contentsOf: Project.path("Examples/ShopApp/android/AndroidManifest.xml"), encoding: .utf8)
        for (from, to) in edits {
            #expect(text.contains(from))
            text = text.replacingOccurrences(of: from, with: to)
        }
        let file = try Project.temporaryDirectory().appendingPathComponent("AndroidManifest.xml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func theExampleManifestTakesTheReturnOnEveryBranch() throws {
        // Every branch where the bank app is installed and Chrome lets the return page's redirect through: by the
        // verified app link, and (app link unverified) by the intent.
        let result = Simulator.explore(try Self.androidFlow(manifest: try Self.manifest()))
        let returning = result.branches.filter { !$0.branch.contains("app-missing") && !$0.branch.contains("redirect-blocked") }
        #expect(returning.map(\.branch).contains { $0.contains("app-link-unverified") })
        for b in returning { #expect(b.outcome.kind == .complete, "\(b.branch): \(b.outcome.reason)") }
    }

    @Test func aManifestWhoseFiltersMissTheReturnStrandsThePayment() throws {
        // Neither the app link (no autoVerify) nor the intent (another action) reaches the app.
        let broken = try Self.manifest([
            ("<intent-filter android:autoVerify=\"true\">", "<intent-filter>"),
            ("com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER", "com.example.VIEW"),
        ])
        let r = Simulator.run(try Self.androidFlow(manifest: broken)).branches[0]
        #expect(r.outcome.kind == .stuck, "\(r.outcome)")
        #expect(r.outcome.reason.contains("no app takes the intent (package com.example.shop)"), "\(r.outcome.reason)")
    }

    @Test func anUnexportedActivityTakesNothing() throws {
        let broken = try Self.manifest([
            ("<intent-filter android:autoVerify=\"true\">", "<intent-filter>"),
            (
                "android:name=\".PaymentActivity\" android:exported=\"true\"",
                "android:name=\".PaymentActivity\" android:exported=\"false\""
            ),
        ])
        #expect(Simulator.run(try Self.androidFlow(manifest: broken)).branches[0].outcome.kind == .stuck)
    }

    @Test func aMissingOrMalformedFileIsAnErrorNamingIt() throws {
        do {
            _ = try Self.androidFlow(manifest: "/nonexistent/AndroidManifest.xml")
            Issue.record("expected an error")
        } catch {
            #expect(
                "\(error)".contains("flow.yaml:6: environment.apps[0].manifest")
                    && "\(error)".contains("cannot read '/nonexistent/AndroidManifest.xml'"), "\(error)")
        }
        let bad = try Self.manifest([("<application android:label=\"Shop\">", "<application android:label=\"Shop\">\n<activity")])
        do {
            _ = try Self.androidFlow(manifest: bad)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("AndroidManifest.xml:") && "\(error)".contains("not well-formed XML"), "\(error)")
        }
    }

    @Test func entitlementsDecideWhichUniversalLinksTheOSHonours() throws {
        let dir = try Project.temporaryDirectory()
        let entitlements = dir.appendingPathComponent("Shop.entitlements")
        let claim = { (host: String) in
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>com.apple.developer.associated-domains</key>
            <array><string>applinks:\(host)</string></array></dict></plist>
            """
        }
        let env = { () throws -> any NavigationPolicy.SystemServices in
            try ConfiguredAppsSystem.make(
                NavigationPolicy.Environment(
                    apps: [
                        .init(
                            name: "Shop", universalLinks: [.init(host: "shop.example.com", paths: ["/*"])],
                            files: .init(entitlements: entitlements.path))
                    ], hostApp: "Shop"))
        }
        try claim("shop.example.com").write(to: entitlements, atomically: true, encoding: .utf8)
        #expect(try env().universalLinkApp(for: "https://shop.example.com/pay") == "Shop")
        try claim("www.shop.example.com").write(to: entitlements, atomically: true, encoding: .utf8)
        #expect(try env().universalLinkApp(for: "https://shop.example.com/pay") == nil)
    }
}

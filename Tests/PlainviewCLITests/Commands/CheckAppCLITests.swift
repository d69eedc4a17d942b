import Foundation
import Testing
import TestSupport

/// `plainview check-app` on the shipped example app (Examples/ShopApp) and on copies of it with one planted
/// defect each: the correct files pass every required return, each defect fails on the return it breaks and
/// names the file and line to change.
@Suite struct CheckAppCLITests {
    static let certificate = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// A copy of Examples/ShopApp with `edit` applied to `file` (a path inside it).
    static func app(editing file: String? = nil, _ edit: (String) -> String = { $0 }) throws -> URL {
        let dir = try Project.temporaryDirectory()
        let copy = dir.appendingPathComponent("ShopApp")
        try FileManager.default.copyItem(at: Project.path("Examples/ShopApp"), to: copy)
        if let file {
            let url = copy.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            let edited = edit(text)
            #expect(edited != text, "the edit of \(file) changed nothing")
            try edited.write(to: url, atomically: true, encoding: .utf8)
        }
        return copy
    }

    static func ios(_ app: URL, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(
            [
                "check-app", "--policy", Project.path("Pages/common/ios-policy.yaml").path, "--flows", Project.path("Pages").path,
                "--info-plist", app.appendingPathComponent("ios/Info.plist").path,
                "--entitlements", app.appendingPathComponent("ios/Shop.entitlements").path,
                "--app-id", "ABCDE12345.com.example.shop",
                "--aasa", "shop.example.com=" + app.appendingPathComponent("served/apple-app-site-association").path,
            ] + extra, timeout: 120)
    }

    static func android(_ app: URL, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(
            [
                "check-app", "--policy", Project.path("Pages/common/android-policy.yaml").path, "--flows",
                Project.path("Pages").path,
                "--manifest", app.appendingPathComponent("android/AndroidManifest.xml").path,
                "--assetlinks", "shop.example.com=" + app.appendingPathComponent("served/assetlinks.json").path,
                "--android-cert-sha256", certificate,
            ] + extra, timeout: 120)
    }

    static func lines(_ r: CLIResult, _ verdict: String) -> [String] {
        r.stdoutLines.filter { $0.contains(" \(verdict)  ") }
    }

    @Test func theExampleAppPassesEveryReturnItsFlowsRelyOn() async throws {
        let app = try Self.app()
        let ios = try await offPool { try Self.ios(app) }
        #expect(ios.status == 0, "\(ios)")
        #expect(Self.lines(ios, "FAIL").isEmpty)
        // paymentUrl as a universal link, the callbackScheme form, and the flows' custom-scheme fallbacks.
        #expect(ios.stdout.contains("PASS  paymentUrl and"), "\(ios)")
        #expect(ios.stdout.contains("lists ABCDE12345.com.example.shop for /swedbank-pay-mobile/sdk-callback/ios-universal-link"))
        #expect(ios.stdout.contains("PASS  callbackScheme shopapp://"))
        #expect(ios.stdout.contains("PASS  flow ios-"))
        let android = try await offPool { try Self.android(app) }
        #expect(android.status == 0, "\(android)")
        #expect(Self.lines(android, "FAIL").isEmpty)
        // The return page's intent: URL (Swedbank Pay's action, the app's package) and paymentUrl as an app link.
        #expect(android.stdout.contains("takes com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER"), "\(android)")
        #expect(android.stdout.contains("delegates to com.example.shop with its certificate"))
    }

    /// One planted defect: the file edited, the edit, the platform, and what the failing line must say.
    struct Defect: Sendable, CustomStringConvertible {
        var name: String
        var file: String
        var from: String
        var to: String
        var platform: String
        var expected: [String]
        var description: String { name }
    }

    static let defects: [Defect] = [
        Defect(
            name: "wrong scheme in CFBundleURLSchemes", file: "ios/Info.plist", from: "<string>shopapp</string>",
            to: "<string>shop-app</string>", platform: "ios",
            expected: [
                "FAIL  callbackScheme", "Info.plist:8: no CFBundleURLTypes entry lists the scheme \"shopapp\"",
                "(listed: shop-app)",
            ]),
        Defect(
            name: "applinks for another host", file: "ios/Shop.entitlements", from: "applinks:shop.example.com",
            to: "applinks:www.shop.example.com", platform: "ios",
            expected: [
                "FAIL  paymentUrl",
                "Shop.entitlements:6: com.apple.developer.associated-domains has no applinks:shop.example.com",
            ]),
        Defect(
            name: "applinks without the AASA path", file: "served/apple-app-site-association",
            from: "/swedbank-pay-mobile/sdk-callback/*", to: "/pay/*", platform: "ios",
            expected: [
                "FAIL  paymentUrl",
                "apple-app-site-association: the apple-app-site-association of shop.example.com lists ABCDE12345.com.example.shop but no path",
            ]),
        Defect(
            name: "AASA naming another app", file: "served/apple-app-site-association", from: "ABCDE12345.com.example.shop",
            to: "ABCDE12345.com.example.shop.dev", platform: "ios",
            expected: [
                "FAIL  paymentUrl", "does not name ABCDE12345.com.example.shop (it names ABCDE12345.com.example.shop.dev)",
            ]),
        Defect(
            name: "intent filter host", file: "android/AndroidManifest.xml",
            from: "<data android:scheme=\"https\" android:host=\"shop.example.com\"",
            to: "<data android:scheme=\"https\" android:host=\"www.shop.example.com\"", platform: "android",
            expected: [
                "FAIL  paymentUrl's return page (the Android helper)",
                "no activity's intent filter takes com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER",
                "its hosts are www.shop.example.com, not shop.example.com",
            ]),
        Defect(
            name: "intent filter path", file: "android/AndroidManifest.xml",
            from:
                "android:host=\"shop.example.com\"\n                    android:pathPrefix=\"/swedbank-pay-mobile/sdk-callback/\"",
            to: "android:host=\"shop.example.com\"\n                    android:pathPrefix=\"/sdk-callback/\"",
            platform: "android",
            expected: [
                "FAIL  paymentUrl's return page (the Android helper)",
                "no path rule (pathPrefix=\"/sdk-callback/\") matches /swedbank-pay-mobile/sdk-callback/android-intent",
            ]),
        Defect(
            name: "missing BROWSABLE", file: "android/AndroidManifest.xml",
            from:
                "                <action android:name=\"com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER\" />\n                <category android:name=\"android.intent.category.DEFAULT\" />\n                <category android:name=\"android.intent.category.BROWSABLE\" />",
            to:
                "                <action android:name=\"com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER\" />\n                <category android:name=\"android.intent.category.DEFAULT\" />",
            platform: "android",
            expected: [
                "FAIL  paymentUrl's return page (the Android helper)",
                "it lacks <category android:name=\"android.intent.category.BROWSABLE\"/>",
            ]),
        Defect(
            name: "not exported", file: "android/AndroidManifest.xml",
            from: "<activity android:name=\".PaymentActivity\" android:exported=\"true\">",
            to: "<activity android:name=\".PaymentActivity\" android:exported=\"false\">", platform: "android",
            expected: [
                "FAIL  paymentUrl's return page (the Android helper)", "AndroidManifest.xml:15: .PaymentActivity takes it",
                "android:exported=\"false\"",
            ]),
        Defect(
            name: "missing autoVerify", file: "android/AndroidManifest.xml", from: "<intent-filter android:autoVerify=\"true\">",
            to: "<intent-filter>", platform: "android",
            expected: [
                "FAIL  paymentUrl (an App Link",
                "has no android:autoVerify=\"true\": since Android 12 an unverified https link opens in the browser",
            ]),
        Defect(
            name: "fingerprint mismatch", file: "served/assetlinks.json", from: "14:6D:E9:83", to: "14:6D:E9:84",
            platform: "android",
            expected: ["FAIL  paymentUrl (an App Link", "not the app's certificate 14:6D:E9:83"]),
    ]

    @Test(arguments: defects)
    func aPlantedDefectIsFoundWhereItIs(_ defect: Defect) async throws {
        let app = try Self.app(editing: defect.file) { $0.replacingOccurrences(of: defect.from, with: defect.to) }
        let r = try await offPool { defect.platform == "ios" ? try Self.ios(app) : try Self.android(app) }
        for text in defect.expected { #expect(r.stdout.contains(text), "\(defect): missing \(text)\n\(r)") }
        // Every planted defect breaks a return the app relies on: the check fails.
        #expect(r.status == 1, "\(defect)\n\(r)")
    }

    @Test func withoutTheAppIDTheAASAIsJudgedByEveryAppItNames() async throws {
        // The entitlements and Info.plist leave the app ID to build variables, and no --app-id is given.
        @Sendable func run(_ app: URL) throws -> CLIResult {
            try CLI.run([
                "check-app", "--policy", Project.path("Pages/common/ios-policy.yaml").path,
                "--info-plist", app.appendingPathComponent("ios/Info.plist").path,
                "--entitlements", app.appendingPathComponent("ios/Shop.entitlements").path,
                "--aasa", "shop.example.com=" + app.appendingPathComponent("served/apple-app-site-association").path,
            ])
        }
        let good = try Self.app()
        let r = try await offPool { try run(good) }
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("WARN  paymentUrl") && r.stdout.contains("give --app-id TEAMID.bundle.id"), "\(r)")
        let bad = try Self.app(editing: "served/apple-app-site-association") {
            $0.replacingOccurrences(of: "/swedbank-pay-mobile/sdk-callback/*", with: "/pay/*")
        }
        let b = try await offPool { try run(bad) }
        #expect(b.status == 1, "\(b)")
        #expect(
            b.stdout.contains("FAIL  paymentUrl") && b.stdout.contains("lets no app (it names ABCDE12345.com.example.shop) open"),
            "\(b)")
    }

    @Test func withoutFlowsThePolicyStillNamesTheHelpersIntentAndTheAppLink() async throws {
        // paymentUrl is the Android helper: its return page's intent must reach the app, flows or not.
        let app = try Self.app(editing: "android/AndroidManifest.xml") {
            $0.replacingOccurrences(of: "com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER", with: "com.example.VIEW")
        }
        let manifest = app.appendingPathComponent("android/AndroidManifest.xml").path
        let policy = Project.path("Pages/common/android-policy.yaml").path
        let r = try await offPool { try CLI.run(["check-app", "--policy", policy, "--manifest", manifest]) }
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("FAIL  paymentUrl's return page (the Android helper) intent://shop.example.com/"), "\(r)")
        #expect(r.stdout.contains("its actions are com.example.VIEW, not com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER"), "\(r)")
        // An app that takes no https links at all (no App Links) is only warned about paymentUrl as a link.
        let plain = try Self.app(editing: "android/AndroidManifest.xml") {
            $0.replacingOccurrences(of: "<data android:host=\"shop.example.com\" />", with: "")
        }
        let p = try await offPool {
            try CLI.run([
                "check-app", "--policy", policy, "--manifest", plain.appendingPathComponent("android/AndroidManifest.xml").path,
            ])
        }
        #expect(p.status == 0, "\(p)")
        #expect(p.stdout.contains("WARN  paymentUrl https://"), "\(p)")
    }

    @Test(arguments: [
        (
            "ios/Info.plist", "<array>", "<arrayy>",
            "Info.plist:17: not well-formed XML: Opening and ending tag mismatch: arrayy line 8 and array"
        ),
        (
            "ios/Info.plist", "<string>shopapp</string>", "<integer>1</integer>",
            "Info.plist:14: CFBundleURLTypes[0].CFBundleURLSchemes: expected a string, found a integer"
        ),
        (
            "android/AndroidManifest.xml", "<manifest ", "<manifestx ",
            "not well-formed XML: Opening and ending tag mismatch: manifestx line 2 and manifest"
        ),
        (
            "android/AndroidManifest.xml",
            "android:exported=\"true\">\n            <intent-filter>\n                <action android:name=\"com.swedbankpay",
            "android:exported=\"yes\">\n            <intent-filter>\n                <action android:name=\"com.swedbankpay",
            "AndroidManifest.xml:15: android:exported=\"yes\" on <activity>: expected true or false"
        ),
        (
            "served/assetlinks.json", "\"package_name\": \"com.example.shop\"", "\"package_name\": \"shop\"",
            "assetlinks.json: assetlinks.json $[0].target.package_name: expected an Android package name"
        ),
    ])
    func aBadFileIsAnInputErrorNamingFileAndLine(file: String, from: String, to: String, message: String) async throws {
        let app = try Self.app(editing: file) { $0.replacingOccurrences(of: from, with: to) }
        let r = try await offPool { file.hasPrefix("ios") ? try Self.ios(app) : try Self.android(app) }
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(r.stdout.isEmpty)
    }

    @Test func aBinaryPlistSaysHowToConvertIt() async throws {
        let app = try Self.app()
        try Data("bplist00\u{0}\u{1}".utf8).write(to: app.appendingPathComponent("ios/Info.plist"))
        let r = try await offPool { try Self.ios(app) }
        #expect(r.status == 64)
        #expect(
            r.stderr.contains(
                "Info.plist: is a binary property list; expected the XML form (convert it with `plutil -convert xml1 FILE`)"),
            "\(r)")
    }

    @Test func withoutTheAppsFilesItIsAUsageError() async throws {
        let policy = Project.path("Pages/common/ios-policy.yaml").path
        let r = try await offPool { try CLI.run(["check-app", "--policy", policy]) }
        #expect(r.status == 64)
        #expect(r.stderr.contains("give the app's files"))
    }

    @Test func jsonListsEveryFindingWithItsFileAndLine() async throws {
        let app = try Self.app(editing: "ios/Info.plist") {
            $0.replacingOccurrences(of: "<string>shopapp</string>", with: "<string>other</string>")
        }
        let r = try await offPool { try Self.ios(app, ["--json"]) }
        #expect(r.status == 1)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r)")
        let failing = items.filter { $0["verdict"] as? String == "fail" }
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { ($0["file"] as? String)?.hasSuffix("ios/Info.plist") == true && $0["line"] as? Int == 8 })
    }
}

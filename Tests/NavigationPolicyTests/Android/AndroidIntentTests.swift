@testable import AppSwitch
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

/// One AOSP CTS `Intent.parseUri` row.
struct IntentConformanceCase: Sendable, CustomTestStringConvertible {
    var id: Int
    var test: String
    var input: String
    var androidAppURI: String?
    /// JSON of the expected intent, or nil when parsing must throw.
    var expected: ExpectedIntent?
    var roundTripIntent: String?
    var roundTripAndroidApp: String?
    var why: String

    var testDescription: String { "#\(id) \(test): \(input.prefix(70))" }

    static func load() throws -> [IntentConformanceCase] {
        let root =
            try JSONSerialization.jsonObject(with: Project.conformance("android_intent_uri_aosp_cts.json")) as? [String: Any]
        return (root?["cases"] as? [[String: Any]] ?? []).map { row in
            let rt = row["round_trip"] as? [String: String]
            return IntentConformanceCase(
                id: row["id"] as? Int ?? -1, test: row["test"] as? String ?? "?", input: row["input"] as? String ?? "",
                androidAppURI: row["android_app_uri"] as? String,
                expected: (row["expected"] as? [String: Any]).map(ExpectedIntent.init),
                roundTripIntent: rt?["toUri(URI_INTENT_SCHEME)"], roundTripAndroidApp: rt?["toUri(URI_ANDROID_APP_SCHEME)"],
                why: row["why"] as? String ?? "")
        }
    }
}

/// The expected fields of an Intent, as the CTS file spells them.
struct ExpectedIntent: Sendable {
    var action: String?
    var data: String?
    var type: String?
    var categories: [String]
    var package: String?
    var component: AndroidComponentName?
    var flags: Int
    var extras: [String: IntentExtra]
    var selector: [ExpectedIntent]
    var assertedFieldsOnly: Bool

    init(_ o: [String: Any]) {
        action = o["action"] as? String
        data = o["data"] as? String
        type = o["type"] as? String
        categories = o["categories"] as? [String] ?? []
        package = o["package"] as? String
        if let c = o["component"] as? [String: String], let p = c["package"], let k = c["class"] {
            component = AndroidComponentName(package: p, className: k)
        }
        flags = o["flags"] as? Int ?? 0
        var extras: [String: IntentExtra] = [:]
        for (key, v) in o["extras"] as? [String: [String: Any]] ?? [:] {
            let value = v["value"]
            switch v["type"] as? String {
            case "String": extras[key] = .string(value as? String ?? "")
            case "int": extras[key] = .int(Int32((value as? NSNumber)?.int32Value ?? 0))
            case "long": extras[key] = .long((value as? NSNumber)?.int64Value ?? 0)
            case "boolean": extras[key] = .bool((value as? Bool) ?? false)
            case "float": extras[key] = .float(Float((value as? NSNumber)?.doubleValue ?? 0))
            case "double": extras[key] = .double((value as? NSNumber)?.doubleValue ?? 0)
            default: extras[key] = .string("<unknown type \(v["type"] ?? "nil")>")
            }
        }
        self.extras = extras
        selector = (o["selector"] as? [String: Any]).map { [ExpectedIntent($0)] } ?? []
        assertedFieldsOnly = o["asserted_fields_only"] as? Bool ?? false
    }

    func check(_ intent: AndroidIntent, _ label: String) {
        #expect(intent.action == action, "\(label): action")
        if assertedFieldsOnly { return }
        #expect(intent.data == data, "\(label): data")
        #expect(intent.type == type, "\(label): type")
        #expect(intent.categories == categories, "\(label): categories")
        #expect(intent.package == package, "\(label): package")
        #expect(intent.componentName == component, "\(label): component")
        #expect(intent.flags == flags, "\(label): flags")
        #expect(intent.extras == extras, "\(label): extras")
        #expect((intent.selector == nil) == selector.isEmpty, "\(label): selector presence")
        if let sel = intent.selector?.intent, let expectedSel = selector.first { expectedSel.check(sel, label + " selector") }
    }
}

@Suite("Android intent: AOSP CTS Intent.parseUri conformance")
struct AndroidIntentConformanceTests {
    static let cases = (try? IntentConformanceCase.load()) ?? []

    @Test func allCasesLoaded() { #expect(Self.cases.count == 42) }

    @Test("AOSP CTS row", arguments: cases)
    func row(_ row: IntentConformanceCase) throws {
        guard let expected = row.expected else {
            #expect(throws: AndroidIntent.ParseError.self, "\(row.why)") { _ = try AndroidIntent.parse(row.input) }
            return
        }
        let intent = try AndroidIntent.parse(row.input)
        expected.check(intent, "parse(input)")
        if let rt = row.roundTripIntent { #expect(intent.toURI() == rt) }
        if let app = row.androidAppURI {
            let viaApp = try AndroidIntent.parse(app)
            expected.check(viaApp, "parse(android_app_uri)")
            #expect(viaApp == intent)
        }
        if let rt = row.roundTripAndroidApp { #expect(intent.toAndroidAppURI() == rt) }
    }
}

@Suite("Android intent: GeckoView safe-URI vectors")
struct GeckoViewSafeURITests {
    struct Row: Decodable, Sendable, CustomTestStringConvertible {
        var id: Int
        var test: String
        var function: String
        var input: String
        var expected: ExpectedValue
        enum ExpectedValue: Decodable, Sendable {
            case bool(Bool), string(String)
            init(from d: any Decoder) throws {
                let c = try d.singleValueContainer()
                if let b = try? c.decode(Bool.self) { self = .bool(b) } else { self = .string(try c.decode(String.self)) }
            }
        }
        var testDescription: String { "#\(id) \(test): \(input)" }
    }

    static let rows = (try? Project.conformanceCases("geckoview_intentutils_safe_uri.json", as: Row.self)) ?? []
    /// `normalizeUri` (scheme lower-casing) belongs to URL normalisation in the policy engine, not here.
    static let notModelled: Set<String> = ["normalizeUri"]

    @Test func allRowsLoaded() { #expect(Self.rows.count == 10) }

    @Test("isUriSafeForScheme", arguments: rows)
    func row(_ row: Row) {
        guard !Self.notModelled.contains(row.function), case .bool(let safe) = row.expected else { return }
        #expect(AndroidIntent.isSafeForExternalApp(row.input) == safe)
    }
}

@Suite("Android intent: parsing details, helpers and malformed input")
struct AndroidIntentTests {
    @Test(arguments: [
        ("intent:#Intent;action=a;end", "no error"),
        ("intent:#Intent;scheme=mailto;package=com.myapp;d.double=10.4", "truncated, no end"),
        ("intent:#Intent;action=a", "no ';' after last item"),
        ("intent:#Intent;", "nothing after #Intent;"),
        ("intent://x#Intent;K.k=1;end", "unknown extra type"),
        ("intent://x#Intent;S.k;end", "extra without ="),
        ("intent://x#Intent;i.n=12x;end", "int not a number"),
        ("intent://x#Intent;i.n=2147483648;end", "int overflow"),
        ("intent://x#Intent;b.n=128;end", "byte overflow"),
        ("intent://x#Intent;s.n=40000;end", "short overflow"),
        ("intent://x#Intent;l.n=9223372036854775808;end", "long overflow"),
        ("intent://x#Intent;d.n=ten;end", "double not a number"),
        ("intent://x#Intent;f.n=;end", "empty float"),
        ("intent://x#Intent;c.n=;end", "empty char"),
        ("intent://x#Intent;launchFlags=0xZZ;end", "bad flags"),
        ("intent://x#Intent;launchFlags=0x100000000;end", "flags overflow"),
        ("intent://x#Intent;actionfoo;end", "key without ="),
        ("android-app:", "android-app too short"),
        ("android-app:/", "android-app too short (Android: charAt(13) out of bounds)"),
        ("android-app://com.myapp/mailto#Intent;d.double=10.4", "android-app without end"),
    ])
    func malformedInputThrows(uri: String, why: String) {
        if why == "no error" {
            #expect(throws: Never.self) { _ = try AndroidIntent.parse(uri) }
        } else {
            #expect(throws: AndroidIntent.ParseError.self, "\(why)") { _ = try AndroidIntent.parse(uri) }
        }
    }

    @Test func errorsSayWhatWasExpected() {
        do {
            _ = try AndroidIntent.parse("intent:#Intent;S.a=b")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("expected"))
            #expect(error.offset != nil)
        }
    }

    @Test func hugeInputsAreParsedNotCrashedOn() throws {
        let big = String(repeating: "a", count: 200_000)
        let intent = try AndroidIntent.parse("intent://h/\(big)#Intent;scheme=https;S.\(big)=\(big);end")
        #expect(intent.data == "https://h/\(big)")
        #expect(intent.extras[big] == .string(big))
        let manyItems = "intent:#Intent;" + String(repeating: "category=c;", count: 50_000) + "end"
        #expect(try AndroidIntent.parse(manyItems).categories == ["c"])
        let manySel = "intent:#Intent;" + String(repeating: "SEL;", count: 50_000) + "end"
        #expect(try AndroidIntent.parse(manySel).selector != nil)
        #expect(throws: AndroidIntent.ParseError.self) {
            _ = try AndroidIntent.parse("intent:#Intent;" + String(repeating: "S.k=v;", count: 50_000))
        }
        let hashes = String(repeating: "#", count: 100_000)
        #expect(try AndroidIntent.parse("intent:" + hashes).data == "intent:" + hashes)
    }

    @Test func valuesAndNamesArePercentDecoded() throws {
        let i = try AndroidIntent.parse(
            "intent://h/p#Intent;scheme=https;S.a%20b=x%3By%23z+w;S.browser_fallback_url=https%3A%2F%2Fshop.test%2Fpay%3Fa%3D1;end"
        )
        #expect(i.extras["a b"] == .string("x;y#z+w")) // `+` is not a space (Uri.decode)
        #expect(i.browserFallbackURL == "https://shop.test/pay?a=1")
        #expect(i.safeBrowserFallbackURL == "https://shop.test/pay?a=1")
        // And back: names and values are encoded again.
        #expect(try AndroidIntent.parse(i.toURI()) == i)
    }

    @Test(
        arguments: [
            ("S.browser_fallback_url=https%3A%2F%2Fshop.test%2F", "https://shop.test/"),
            ("S.browser_fallback_url=HTTP%3A%2F%2Fshop.test%2F", "HTTP://shop.test/"),
            ("S.browser_fallback_url=javascript%3Aalert(1)", nil),
            ("S.browser_fallback_url=file%3A%2F%2F%2Fetc%2Fpasswd", nil),
            ("S.browser_fallback_url=intent%3A%2F%2Fx%23Intent%3Bend", nil),
            ("S.browser_fallback_url=%2F%2Fshop.test%2F", nil),
            ("S.browser_fallback_url=https%3A%2F%2F", nil),
            ("S.browser_fallback_url=https%3A%2F%2Fshop.test%5C%40evil.test%2F", nil),
            ("i.browser_fallback_url=1", nil),
        ] as [(String, String?)])
    func fallbackOnlyHTTP(item: String, safe: String?) throws {
        let i = try AndroidIntent.parse("intent://x#Intent;scheme=bankid;\(item);end")
        #expect(i.safeBrowserFallbackURL == safe)
    }

    @Test(arguments: [
        ("intent://evil/x#Intent;scheme=file;end", true),
        ("intent:///etc/passwd#Intent;scheme=FILE;end", true),
        ("intent:alert(1)#Intent;scheme=javascript;end", true),
        ("intent:%20javascript:alert(1)#Intent;end", false), // data has no scheme: " javascript" is not one
        ("intent:javascript:alert(1)#Intent;end", true),
        ("intent://x#Intent;scheme=content;end", true),
        ("intent:text/html,x#Intent;scheme=data;end", true),
        ("intent:blank#Intent;scheme=about;end", true),
        ("intent://x#Intent;scheme=https;SEL;scheme=file;end", true),
        ("intent://x#Intent;scheme=intent;end", false),
        ("intent:chrome-urls#Intent;scheme=CHROME;end", true),
        ("intent://x#Intent;scheme=devtools;end", true),
        ("intent:*%2306%23#Intent;scheme=tel;end", true),
        ("intent:12345#Intent;scheme=tel;end", false),
        ("intent://shop.test/x#Intent;scheme=https;package=com.shop;end", false),
        ("intent://x#Intent;scheme=bankid;end", false),
        ("intent:#Intent;package=com.x;end", false),
    ])
    func unsafeData(uri: String, unsafe: Bool) throws {
        #expect(try AndroidIntent.parse(uri).isUnsafeData == unsafe)
    }

    @Test func dataSchemeIsLowerCased() throws {
        #expect(try AndroidIntent.parse("intent://x/y#Intent;scheme=BankID;end").dataScheme == "bankid")
        #expect(try AndroidIntent.parse("intent:foo#Intent;end").dataScheme == nil)
        #expect(try AndroidIntent.parse("intent:#Intent;end").dataScheme == nil)
    }

    @Test func componentShortFormExpandsAndSerialisesShort() throws {
        let i = try AndroidIntent.parse("intent:#Intent;component=com.android/.app.Mock;end")
        #expect(i.component == "com.android/com.android.app.Mock")
        #expect(i.componentName == AndroidComponentName(package: "com.android", className: "com.android.app.Mock"))
        #expect(i.toURI() == "intent:#Intent;component=com.android/.app.Mock;end")
        #expect(try AndroidIntent.parse("intent:#Intent;component=nocls;end").component == nil)
    }

    @Test func typedExtrasKeepTheirType() throws {
        let i = try AndroidIntent.parse(
            "intent:#Intent;b.b=-7;c.c=xyz;s.s=-300;l.l=-9000000000;B.t=TRUE;B.f=yes;d.d=1e10;f.f=0.5f;i.i=+42;end")
        #expect(
            i.extras == [
                "b": .byte(-7), "c": .char("x"), "s": .short(-300), "l": .long(-9_000_000_000), "t": .bool(true),
                "f": .float(0.5), "d": .double(1e10), "i": .int(42),
            ] as [String: IntentExtra] && i.extras["f"] == .float(0.5))
        // Java's toString for doubles: 1.0E10.
        #expect(i.toURI().contains("d.d=1.0E10;"))
        #expect(try AndroidIntent.parse(i.toURI()) == i)
    }

    @Test(arguments: [
        (1e7, "1.0E7"), (9_999_999.0, "9999999.0"), (0.001, "0.001"), (0.0001, "1.0E-4"), (-2.5, "-2.5"),
        (0.0, "0.0"), (123456789.125, "1.23456789125E8"), (Double.nan, "NaN"), (-Double.infinity, "-Infinity"),
    ])
    func javaDoubleToString(value: Double, java: String) {
        #expect(IntentExtra.double(value).uriForm.1 == java)
    }

    @Test func launchFlagsLikeIntegerDecodeAndGrantBitsCleared() throws {
        #expect(try AndroidIntent.parse("intent:#Intent;launchFlags=0x10000000;end").flags == 0x1000_0000)
        #expect(try AndroidIntent.parse("intent:#Intent;launchFlags=268435456;end").flags == 0x1000_0000)
        #expect(try AndroidIntent.parse("intent:#Intent;launchFlags=%2320;end").flags == 0x20)
        #expect(try AndroidIntent.parse("intent:#Intent;launchFlags=040;end").flags == 0x20)
        // FLAG_GRANT_READ_URI_PERMISSION | WRITE | PERSISTABLE | PREFIX are dropped from web-supplied intents.
        #expect(try AndroidIntent.parse("intent:#Intent;launchFlags=0x100000c3;end").flags == 0x1000_0000)
    }

    @Test func selectorIsDroppedWhenOuterIntentHasAPackage() throws {
        let i = try AndroidIntent.parse("intent:#Intent;package=com.a;SEL;scheme=file;end")
        #expect(i.selector == nil)
        #expect(i.package == "com.a")
    }

    @Test func laterHashInsideDataOnlyTheLastHashIntentCounts() throws {
        // A '#' after #Intent; (not escaped) makes the last '#' not start "#Intent;": not the new format.
        let i = try AndroidIntent.parse("intent://x#Intent;scheme=https;S.a=#b;end")
        #expect(i.action == AndroidIntent.actionView)
        #expect(i.data == "intent://x#Intent;scheme=https;S.a=#b;end")
        // Data with the `intent` scheme is not in itself unsafe: Chrome launches `intent://myownurl` when an
        // app takes it (chromium row 58); the policy's app lookup decides.
        #expect(!i.isUnsafeData)
    }

    @Test func uppercaseSchemePrefixIsAnIntent() throws {
        let i = try AndroidIntent.parse("INTENT://shop.test/x#Intent;scheme=https;package=com.shop;end")
        #expect(i.data == "https://shop.test/x")
        #expect(i.package == "com.shop")
    }

    @Test func androidAppForms() throws {
        #expect(try AndroidIntent.parse("android-app://com.a/https").data == "https:")
        // Android drops a host that has no following '/'.
        #expect(try AndroidIntent.parse("android-app://com.a/https/shop.test").data == "https:")
        let i = try AndroidIntent.parse("android-app://com.a/https/shop.test/p?q=1#frag")
        #expect(i.data == "https://shop.test/p?q=1#frag")
        #expect(i.package == "com.a")
        #expect(i.toAndroidAppURI() == "android-app://com.a/https/shop.test/p?q=1#frag")
        #expect(try AndroidIntent.parse("android-app:x/y/z123").data == nil)
        #expect(AndroidIntent().toAndroidAppURI() == nil)
    }

    @Test func sanitizedForLaunchLikeChrome() throws {
        let i = try AndroidIntent.parse(
            "intent://x#Intent;scheme=bankid;component=com.a/.B;launchFlags=0x7FFFFFFF;SEL;component=com.c/.D;end")
        #expect(i.selector != nil)
        let s = i.sanitizedForLaunch()
        #expect(s.component == nil)
        #expect(s.categories == [AndroidIntent.categoryBrowsable])
        #expect(s.selector == nil)
        #expect(s.flags == 0x3C08_3810)
        #expect(s.data == i.data)
    }

    @Test func categoriesAndExtrasSerialiseInJavaHashOrder() {
        var i = AndroidIntent()
        i.action = "a"
        i.categories = ["float", "string"]
        i.extras = ["float": .int(1), "boolean": .int(2), "string": .int(3), "int": .int(4), "long": .int(5)]
        #expect(
            i.toURI()
                == "intent:#Intent;action=a;category=string;category=float;i.string=3;i.int=4;i.long=5;i.boolean=2;i.float=1;end")
    }
}

/// The parse-level part of Chrome's ExternalNavigationHandler vectors: rows whose outcome is decided by the
/// intent itself (malformed → not launched; privileged data scheme → not launched; otherwise launchable).
@Suite("Android intent: Chromium rows decided by the intent itself")
struct ChromiumIntentRowsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var id: Int
        var url: String
        var blocked: Bool
        var why: String
        var testDescription: String { "#\(id) \(url.prefix(80))" }
    }

    /// 25–33 internal/privileged schemes, 51/53 sanitised launches, 58 nested intent data, 125 flags,
    /// 126 scheme=file, 128 empty scheme, 129 odd-case scheme, 144 sms, 158–160 malformed.
    static let ids: Set<Int> = [25, 26, 27, 28, 29, 30, 31, 32, 33, 51, 53, 58, 125, 126, 128, 129, 144, 158, 159, 160]

    static let rows: [Row] = {
        let data = Project.requiredConformance("android_external_navigation_chromium.json")
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { c in
            guard let id = c["id"] as? Int, ids.contains(id), let url = c["url"] as? String,
                let expected = c["expected"] as? [String: Any], let decision = expected["decision"] as? String
            else { return nil }
            return Row(id: id, url: url, blocked: decision == "no_external_launch", why: c["why"] as? String ?? "")
        }
    }()

    @Test func allSelectedRowsFound() { #expect(Self.rows.count == Self.ids.count) }

    @Test("Chromium ExternalNavigationHandler row", arguments: rows)
    func row(_ row: Row) {
        let blocked: Bool
        if let intent = try? AndroidIntent.parse(row.url) { blocked = intent.isUnsafeData } else { blocked = true }
        #expect(blocked == row.blocked, "\(row.why)")
    }
}

import AppConfiguration
import Testing

/// Android's matching of an intent filter's `<data>` (IntentFilter.matchData, PatternMatcher), as a table.
@Suite struct AndroidIntentFilterTests {
    static func manifest(_ filter: String) throws -> AndroidManifest {
        let xml = """
            <manifest xmlns:a="http://schemas.android.com/apk/res/android" package="com.example.shop">
            <application><activity a:name=".A" a:exported="true">\(filter)</activity></application></manifest>
            """
        return try AndroidManifest.read(Array(xml.utf8), file: "AndroidManifest.xml")
    }

    @Test(arguments: [
        // pathPattern: `.*` stops at the first occurrence of the character after it (Android does not backtrack).
        (AndroidPathPattern.Kind.pathPattern, "/pay/.*", "/pay/x/y", true),
        (.pathPattern, "/.*/pay", "/a/pay", true),
        (.pathPattern, "/.*/pay", "/a/b/pay", false),
        (.pathPattern, "/pa*y", "/paaay", true),
        (.pathPattern, "/pa*y", "/py", true),
        (.pathPattern, "/p.y", "/pay", true),
        (.pathPattern, "/p\\.y", "/pay", false),
        (.pathPattern, "/p\\.y", "/p.y", true),
        (.pathPattern, "/pay", "/pay/", false),
        (.pathPrefix, "/swedbank-pay-mobile/", "/swedbank-pay-mobile/x", true),
        (.pathPrefix, "/swedbank-pay-mobile/", "/swedbank-pay-mobilex", false),
        (.path, "/pay", "/pay", true),
        (.path, "/pay", "/Pay", false),
        (.pathSuffix, "/callback", "/a/callback", true),
        (.pathAdvancedPattern, "/order/[0-9]+", "/order/42", true),
        (.pathAdvancedPattern, "/order/[0-9]+", "/order/4x", false),
        (.pathAdvancedPattern, "/o{2}k", "/ook", true),
    ])
    func pathRules(kind: AndroidPathPattern.Kind, pattern: String, path: String, matches: Bool) {
        #expect(AndroidPathPattern(kind: kind, pattern: pattern).matches(path) == matches)
    }

    @Test(arguments: [
        // Attributes of separate <data> elements merge into one rule.
        ("<data a:scheme=\"https\"/><data a:host=\"shop.example.com\"/>", "https://shop.example.com/x", true),
        ("<data a:scheme=\"https\" a:host=\"shop.example.com\"/>", "https://SHOP.example.com/x", true),
        ("<data a:scheme=\"https\" a:host=\"shop.example.com\"/>", "http://shop.example.com/x", false),
        // A leading * matches any prefix of the host, not the bare domain.
        ("<data a:scheme=\"https\" a:host=\"*.example.com\"/>", "https://shop.example.com/", true),
        ("<data a:scheme=\"https\" a:host=\"*.example.com\"/>", "https://example.com/", false),
        // A port in the filter takes only that explicit port.
        ("<data a:scheme=\"https\" a:host=\"shop.example.com\" a:port=\"443\"/>", "https://shop.example.com/", false),
        // Android's schemes are case-sensitive; a custom scheme without host takes any URI of it.
        ("<data a:scheme=\"shopapp\"/>", "shopapp://anything/at/all", true),
        ("<data a:scheme=\"shopapp\"/>", "ShopApp://x", false),
        // The path is matched decoded.
        ("<data a:scheme=\"https\" a:host=\"s.example\" a:path=\"/a b\"/>", "https://s.example/a%20b", true),
    ])
    func dataRules(data: String, url: String, matches: Bool) throws {
        let m = try Self.manifest(
            "<intent-filter><action a:name=\"android.intent.action.VIEW\"/><category a:name=\"android.intent.category.DEFAULT\"/><category a:name=\"android.intent.category.BROWSABLE\"/>\(data)</intent-filter>"
        )
        let filter = try #require(m.components.first?.filters.first)
        #expect(
            filter.matches(action: AndroidIntentFilter.view, categories: [AndroidIntentFilter.browsable], url: url) == matches)
    }

    @Test func categoriesAndActionsMustAllBeThere() throws {
        let m = try Self.manifest(
            "<intent-filter><action a:name=\"android.intent.action.VIEW\"/><category a:name=\"android.intent.category.DEFAULT\"/><data a:scheme=\"shopapp\"/></intent-filter>"
        )
        let filter = try #require(m.components.first?.filters.first)
        #expect(
            filter.matches(
                action: AndroidIntentFilter.view, categories: [AndroidIntentFilter.defaultCategory], url: "shopapp://x"))
        #expect(
            !filter.matches(action: AndroidIntentFilter.view, categories: [AndroidIntentFilter.browsable], url: "shopapp://x"))
        #expect(!filter.matches(action: "com.example.OTHER", categories: [], url: "shopapp://x"))
        #expect(m.package == "com.example.shop")
        #expect(m.components.first?.exported == true)
    }
}

@testable import AppSwitch
import Testing
@testable import NavigationPolicy

@Suite struct SwishTests {
    // Swish's guide §5.2.1: the callback is encoded with the reserved set !*'();:@&=+$,/?%#[] — every one of them.
    @Test(arguments: Array(AppSwitchEncoding.swishReservedCharacters))
    func everyReservedCharacterIsPercentEncoded(_ c: Character) throws {
        let encoded = AppSwitchEncoding.encodeComponent("a\(c)b")
        let hex = String(c.asciiValue ?? 0, radix: 16, uppercase: true)
        #expect(encoded == "a%\(hex)b")
    }

    @Test func unreservedCharactersStayAsTheyAre() {
        let unreserved = "ABCXYZabcxyz0189-._~"
        #expect(AppSwitchEncoding.encodeComponent(unreserved) == unreserved)
    }

    @Test func charactersNoURLMayHoldAreEncodedToo() {
        // The seed's iOS snippet would leave these raw and NSURL would refuse the whole URL.
        #expect(AppSwitchEncoding.encodeComponent("a b\"<>é") == "a%20b%22%3C%3E%C3%A9")
    }

    @Test func seedExampleMerchantSchemeMatchesUriEscapeDataString() throws {
        // Swish's guide §5.2.3: Uri.EscapeDataString("merchant://") → merchant%3A%2F%2F
        let launch = try SwishLaunch(token: "c28a4061470f4af48973bd2a4642b4fa", callbackURL: "merchant://")
        #expect(launch.url == "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=merchant%3A%2F%2F")
    }

    @Test func escapesInsideTheCallbackAreEncodedOnceSoSwishGetsThemBack() throws {
        // The callback carries its own escape (%20). Encoded once, % becomes %25: one decoding by Swish
        // gives back exactly the callback, escape intact.
        let callback = "merchant://done?note=a%20b&order=42"
        let launch = try SwishLaunch(token: "T1", callbackURL: callback)
        #expect(launch.encodedCallback == "merchant%3A%2F%2Fdone%3Fnote%3Da%2520b%26order%3D42")
        #expect(AppSwitchEncoding.decode(launch.encodedCallback) == callback)
        #expect(try SwishLaunch.parse(launch.url).callbackURL == callback)
        #expect(!launch.callbackWasPreEncoded)
    }

    @Test func aCallbackAlreadyEncodedAsAWholeIsNotEncodedAgain() throws {
        // Encoding merchant%3A%2F%2F again would give merchant%253A%252F%252F, which Swish decodes to a non-URL.
        let launch = try SwishLaunch(token: "T1", callbackURL: "merchant%3A%2F%2Fdone%3Fid%3D7")
        #expect(launch.callbackWasPreEncoded)
        #expect(launch.callbackURL == "merchant://done?id=7")
        #expect(launch.url == "swish://paymentrequest?token=T1&callbackurl=merchant%3A%2F%2Fdone%3Fid%3D7")
        #expect(!launch.url.contains("%25"))
    }

    @Test func encodingIsIdempotentAcrossRoundTrips() throws {
        let first = try SwishLaunch(token: "T1", callbackURL: "https://shop.example/swish?o=1&r=%2F")
        let second = try SwishLaunch.parse(first.url)
        #expect(second == first)
        #expect(second.url == first.url)
    }

    @Test func aDoubleEncodedCallbackInALaunchURLIsReported() {
        #expect(throws: AppSwitchError.self) {
            try SwishLaunch.parse("swish://paymentrequest?token=T1&callbackurl=merchant%253A%252F%252F")
        }
        let error = appSwitchError {
            try SwishLaunch.parse("swish://paymentrequest?token=T1&callbackurl=merchant%253A%252F%252F")
        }
        #expect(error?.field == "callbackurl")
        #expect(error?.description.contains("twice") == true)
    }

    @Test func parseReadsTokenAndDecodedCallback() throws {
        let launch = try SwishLaunch.parse("SWISH://PaymentRequest?token=abc123&callbackurl=shopapp%3A%2F%2Fswish%3Forder%3D9")
        #expect(launch.token == "abc123")
        #expect(launch.callbackURL == "shopapp://swish?order=9")
    }

    @Test func parseToleratesAnUnencodedSimpleCallback() throws {
        // ':' and '/' are legal in a query; decoding them is a no-op, so Swish reads the same callback.
        #expect(try SwishLaunch.parse("swish://paymentrequest?token=abc&callbackurl=merchant://").callbackURL == "merchant://")
    }

    struct Bad: Sendable, CustomStringConvertible {
        var token: String
        var callback: String
        var field: String
        var description: String { "\(field): \(token) \(callback)" }
    }

    @Test(arguments: [
        Bad(token: "", callback: "merchant://", field: "token"),
        Bad(token: "a b", callback: "merchant://", field: "token"),
        Bad(token: "a&callbackurl=evil://", callback: "merchant://", field: "token"),
        Bad(token: "T", callback: "", field: "callbackurl"),
        Bad(token: "T", callback: "not a url", field: "callbackurl"),
        Bad(token: "T", callback: "relative/path", field: "callbackurl"),
        Bad(token: "T", callback: "javascript:alert(1)", field: "callbackurl"),
        Bad(token: "T", callback: "data:text/html,x", field: "callbackurl"),
        Bad(token: "T", callback: "file:///etc/passwd", field: "callbackurl"),
        Bad(token: "T", callback: "swish://paymentrequest", field: "callbackurl"),
        Bad(token: "T", callback: "https:///nohost", field: "callbackurl"),
    ])
    func invalidInputsNameTheField(_ bad: Bad) {
        let error = appSwitchError { try SwishLaunch(token: bad.token, callbackURL: bad.callback) }
        #expect(error?.field == bad.field)
        #expect(error?.description.hasPrefix(bad.field + ":") == true)
    }

    @Test(arguments: [
        "swish://other?token=T&callbackurl=merchant%3A%2F%2F",
        "swish:paymentrequest?token=T&callbackurl=merchant%3A%2F%2F",
        "https://paymentrequest?token=T&callbackurl=merchant%3A%2F%2F",
        "swish://paymentrequest?callbackurl=merchant%3A%2F%2F",
        "swish://paymentrequest?token=T",
        "swish://paymentrequest?token=T&token=U&callbackurl=merchant%3A%2F%2F",
        "swish://paymentrequest?token=T&callbackurl=merchant%ZZ",
    ])
    func malformedLaunchURLsAreErrors(_ url: String) {
        #expect(throws: AppSwitchError.self) { try SwishLaunch.parse(url) }
    }

    @Test func callbackComingBackIsRecognisedWithAddedParameters() throws {
        let cb = try SwishCallback.parse("shopapp://swish?order=9&res=paid", registered: "shopapp://swish?order=9")
        #expect(cb.opensApp)
        #expect(cb.addedParameters == ["res": "paid"])
    }

    @Test(arguments: [
        "otherapp://swish?order=9",
        "shopapp://elsewhere?order=9",
        "shopapp://swish?order=10",
        "shopapp://swish",
    ])
    func aDifferentURLIsNotTheCallback(_ url: String) {
        #expect(throws: AppSwitchError.self) { try SwishCallback.parse(url, registered: "shopapp://swish?order=9") }
    }

    @Test func detectionFollowsTheSeedPerPlatform() {
        #expect(SwishDetection.method(platform: .ios, inBrowser: false) == .canOpenURL(url: "swish://", queriesScheme: "swish"))
        #expect(SwishDetection.method(platform: .android, inBrowser: false) == .packageManager(package: "se.bankgirot.swish"))
        #expect(SwishDetection.method(platform: .ios, inBrowser: true) == .launchTiming(thresholdMilliseconds: 3000))
    }

    @Test func browserTimingGuessIsMoreThanThreeSecondsAndUselessOnChrome25() {
        #expect(SwishDetection.timingGuess(elapsedMilliseconds: 3001, platform: .ios) == true)
        #expect(SwishDetection.timingGuess(elapsedMilliseconds: 3000, platform: .ios) == false)
        #expect(SwishDetection.timingGuess(elapsedMilliseconds: 200, platform: .android, chromeMajorVersion: 24) == false)
        #expect(SwishDetection.timingGuess(elapsedMilliseconds: 9000, platform: .android, chromeMajorVersion: 25) == nil)
    }

    struct SchemeOnly: SystemServices {
        var schemes: Set<String>
        func universalLinkApp(for url: String) -> String? { nil }
        func appLinkApp(for url: String) -> String? { nil }
        func customSchemeApp(for scheme: String) -> String? { schemes.contains(scheme) ? scheme : nil }
        func intentApp(for intent: AndroidIntent) -> String? { nil }
    }

    @Test func isInstalledAsksTheSystemAboutTheSwishScheme() {
        #expect(Swish.isInstalled(platform: .ios, system: SchemeOnly(schemes: ["swish"])))
        #expect(!Swish.isInstalled(platform: .ios, system: NoApps()))
        #expect(!Swish.isInstalled(platform: .android, system: SchemeOnly(schemes: ["bankid"])))
    }
}

@Suite struct SwishNotesTests {
    @Test func theSeedsPlaceholderSchemeAndBrowserCallbacksGetANote() throws {
        #expect(try SwishLaunch(token: "T", callbackURL: "merchant://").notes.first?.contains("own unique scheme") == true)
        // An https callback returns to the app when the app claims it as a universal link (the shipped
        // Swish flow does exactly that), so the note must not say it never can.
        let https = try SwishLaunch(token: "T", callbackURL: "https://shop.example/").notes.first ?? ""
        #expect(https.contains("only if your app claims it as a universal link"))
        #expect(!https.contains("not to your app"))
        #expect(try SwishLaunch(token: "T", callbackURL: "http://shop.example/").notes.first?.contains("not to your app") == true)
        #expect(try SwishLaunch(token: "T", callbackURL: "shopapp://done").notes.isEmpty)
    }
}

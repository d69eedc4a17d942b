import Testing
import PageScan

/// The pages Swedbank Pay's guides show, rebuilt as fixtures (their text minus the documentation call-out markers).
@Suite struct GuidePageTests {
    /// Swedbank Pay's Merchant Backend documentation: the Android payment-url helper's response (the "①" call-out after `end;` is the guide's
    /// annotation, not page content, so it is left out).
    static let androidHelperPage = """
        <html>
        <head>
        <title>Swedbank Pay Payment</title>
        <link rel="stylesheet" href="https://design.swedbankpay.com/v/4.3.0/styles/dg-style.css">
        <meta name="viewport" content="width=device-width">
        <meta http-equiv="refresh" content="0;url=intent://example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53-53c1-4138-923f-59fcf0acd08d#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=your.ecom.app;end;">
        </head>
        <body>
        <div class="text-center">
        <img src="https://design.swedbankpay.com/v/4.3.0/img/swedbankpay-logo.svg" alt="Swedbank Pay" height="120">
        <p><a class="btn btn-executive" href="intent://example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53-53c1-4138-923f-59fcf0acd08d#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=your.ecom.app;end;">Back to app</a></p>
        </div>
        </body>
        </html>
        """
    static let androidHelperURL =
        "https://example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53-53c1-4138-923f-59fcf0acd08d"
    static let androidIntent =
        "intent://example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53-53c1-4138-923f-59fcf0acd08d#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=your.ecom.app;end;"

    /// Swedbank Pay's plain web view guide: the same pattern for `/perform-payment`.
    static let performPaymentPage = """
        <html>
            <head>
                <title>Swedbank Pay Payment</title>
                <meta http-equiv="refresh" content="0;url=intent://example.com/perform-payment#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.app;end;">
            </head>
            <body>
                <a href="intent://example.com/perform-payment#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.app;end;">Back to app</a>
            </body>
        </html>
        """
    static let performPaymentIntent =
        "intent://example.com/perform-payment#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.app;end;"

    /// Swedbank Pay's Merchant Backend documentation: the iOS trampoline page (Swedbank Pay's back-link page), verbatim, including its
    /// `decodeURLComponent` spelling.
    static let trampolinePage = """
        <!DOCTYPE html>
        <html>
        <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1.0" />
            <title>Swedbank Pay Redirect</title>
            <link rel="icon" type="image/png" href="/externalresourcehost/content/images/favicon.png">
            <link rel="stylesheet" href="/externalresourcehost/content/css/style.css">
        </head>
        <body>
            <div class="trampoline-container" onclick="redirect()">
            <img alt="Swedbank Pay Logo" src="/externalresourcehost/content/images/swedbank-pay-logo-vertical.png" />
            <span class="trampoline-text">
                    <a>Back to Your Ecom App</a>
            </span>
        </div>

        <script>
            function redirect() { window.location.href = decodeURLComponent("https%3A%2F%2Fexample.com%2Fswedbank-pay-mobile%2Fsdk-callback%2Fios-universal-link%3Fscheme%3Dyourecomapp%26language%3Den-US%26id%3Dabb50c53-53c1-4138-923f-59fcf0acd08d%26app%3DYour%2520Ecom%2520App%26fallback%3Dtrue"); };
        </script>

        </body>
        </html>
        """
    static let trampolineURL =
        "https://ecom.stage.payex.com/externalresourcehost/trampoline?target=https%3A%2F%2Fexample.com%2Fswedbank-pay-mobile%2Fsdk-callback%2Fios-universal-link%3Fscheme%3Dyourecomapp%26language%3Den-US%26id%3Dabb50c53-53c1-4138-923f-59fcf0acd08d%26app%3DYour%2520Ecom%2520App%26fallback%3Dtrue&language=en-US&app=Your%20Ecom%20App"

    struct Page: Sendable, CustomTestStringConvertible {
        var name: String; var html: String; var url: String; var intent: String
        var testDescription: String { name }
    }

    static let androidPages: [Page] = [
        .init(
            name: "Swedbank Pay's Merchant Backend documentation android-intent helper", html: androidHelperPage,
            url: androidHelperURL, intent: androidIntent),
        .init(
            name: "Swedbank Pay's plain web view guide perform-payment", html: performPaymentPage,
            url: "https://example.com/perform-payment", intent: performPaymentIntent),
    ]

    @Test(arguments: androidPages)
    func androidIntentPageRefreshesToTheIntentAndLinksToIt(_ page: Page) throws {
        let r = try PageScanner.scan(Array(page.html.utf8), contentType: "text/html", documentURL: page.url)
        #expect(r.refresh == .init(delay: 0, url: page.intent))
        #expect(r.links == [.init(url: page.intent, text: "Back to app")])
        #expect(r.forms.isEmpty && r.frames.isEmpty && r.scriptNavigations.isEmpty && r.hooks.isEmpty)
    }

    @Test func trampolineNavigatesToTheDecodedUniversalLinkOnlyOnTap() throws {
        let r = try PageScanner.scan(Array(Self.trampolinePage.utf8), contentType: "text/html", documentURL: Self.trampolineURL)
        #expect(r.refresh == nil)
        #expect(r.links.isEmpty) // the <a> has no href: the tap target is the div's onclick
        #expect(
            r.scriptNavigations.map(\.withoutRunOrder) == [
                .init(
                    url:
                        "https://example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=yourecomapp&language=en-US&id=abb50c53-53c1-4138-923f-59fcf0acd08d&app=Your%20Ecom%20App&fallback=true",
                    kind: .assign, onLoad: false)
            ])
    }

    @Test func plainWebViewGuideJavaScriptHooksPages() throws {
        let ios = #"<html><body><script>window.webkit.messageHandlers.completed.postMessage("success")</script></body></html>"#
        let android =
            #"<html><body><script>callbacks.completed("success")</script><a onclick="callbacks.canceled()">Cancel</a></body></html>"#
        let r1 = try PageScanner.scan(Array(ios.utf8), documentURL: "https://example.com/complete")
        #expect(r1.hooks == [.init(kind: .webkitMessageHandler, name: "completed", argument: "\"success\"", onLoad: true)])
        let r2 = try PageScanner.scan(Array(android.utf8), documentURL: "https://example.com/complete")
        #expect(
            r2.hooks == [
                .init(kind: .androidInterface, name: "callbacks.completed", argument: "\"success\"", onLoad: true),
                .init(kind: .androidInterface, name: "callbacks.canceled", argument: nil, onLoad: false),
            ])
    }

    /// A 3-D Secure challenge page: hidden creq posted to the ACS on load.
    @Test func threeDSChallengePostsItselfOnLoad() throws {
        let html = """
            <!DOCTYPE html><html><head><title>3-D Secure</title></head>
            <body onload="document.forms[0].submit()">
            <form name="downloadForm" action="https://acs.bank.example/challenge" method="POST" target="_self">
            <input type="hidden" name="creq" value="eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ">
            <input type="hidden" name="threeDSSessionData" value="c2Vzc2lvbg">
            <noscript><input type="submit" value="Continue"></noscript>
            </form></body></html>
            """
        let r = try PageScanner.scan(Array(html.utf8), documentURL: "https://psp.example/3ds/method")
        #expect(
            r.forms == [
                .init(
                    action: "https://acs.bank.example/challenge", method: "POST",
                    fields: [
                        .init(name: "creq", value: "eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ"),
                        .init(name: "threeDSSessionData", value: "c2Vzc2lvbg"),
                    ], autoSubmit: true, target: "_self", autoSubmitOrder: 0)
            ])
    }
}

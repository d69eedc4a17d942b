// The stable rule ids of the decision procedure. Every Decision names exactly one of these.
//
// | rule id                         | action         | when |
// |---------------------------------|----------------|------|
// | url.malformed                   | block          | the target is not an absolute URL a browser would parse |
// | intercept.complete              | complete       | completeUrl reached (any frame, after normalisation) |
// | intercept.cancel                | canceled       | cancelUrl reached (any frame) |
// | intercept.terms                 | terms          | termsOfServiceUrl reached (any frame) |
// | intercept.payment               | reload         | paymentUrl, with extra query items in any order, or with callbackScheme for https |
// | scheme.never-external           | block          | javascript:, file:, data:, content:, … at top level (never loads, never reaches an app) |
// | scheme.about-blank              | allow          | about:blank / about:srcdoc at top level |
// | subframe.web                    | allow          | http(s) in a sub-frame |
// | subframe.loadable               | allow          | about:, data:, blob: in a sub-frame |
// | subframe.not-web                | block          | javascript:, file:, content: … in a sub-frame |
// | subframe.no-gesture             | block          | Android: a sub-frame opening an app (custom scheme, intent:) without a user gesture |
// | ios.universal-link              | open-app       | iOS main frame/new window: an installed app claims the https URL (AASA) |
// | android.app-link                | open-app       | Android main frame/new window: a verified app link claims the http(s) URL |
// | custom-scheme.app               | open-app       | an installed app handles the custom scheme |
// | custom-scheme.system-app        | open-app       | the platform's own app handles it (tel: Phone, mailto: Mail, sms: Messages …) |
// | custom-scheme.no-app            | block          | no installed app handles the custom scheme |
// | custom-scheme.unsafe            | block          | tel:/sms: carrying `#` (MMI/USSD codes such as *#06#) |
// | intent.ios                      | block          | intent:/android-app: on iOS (no such thing there) |
// | intent.malformed                | block          | the intent: URL does not parse |
// | intent.unsafe                   | block          | the intent (or its selector) wraps a never-external scheme: javascript:, file:, content:, data:, fido: … |
// | intent.app                      | open-app       | a non-browser app takes the intent |
// | intent.fallback                 | load           | no app; S.browser_fallback_url is http(s) and the web decision allows it: load it instead |
// | intent.no-app                   | block          | no app and no usable (http/https) fallback |
// | web.own-host                    | allow          | the merchant's own host (the four URLs' hosts, allowedHosts), same port |
// | web.insecure                    | open-browser   | plain http to a host the policy does not name as http://host: never stays in the web view |
// | web.goodlist                    | allow          | redirectPolicy goodlist and the host is on the goodlist |
// | web.picky-page                  | open-browser   | redirectPolicy goodlist, unknown host: the CURRENT page opens in the system browser |
// | web.picky-page-from-payment     | open-browser   | same, but the current page is the payment page (or none): the TARGET opens in the browser |
// | web.picky-page-new-window       | open-browser   | same, in a new window (popup): the popup's own URL opens in the browser, the opener stays |
// | web.redirect-webview            | allow          | redirectPolicy webview: every http(s) page loads in the web view |
// | web.redirect-browser            | open-browser   | redirectPolicy browser: every page not the merchant's own opens in the browser |

extension RuleID {
    public static let urlMalformed = RuleID("url.malformed")
    public static let interceptComplete = RuleID("intercept.complete")
    public static let interceptCancel = RuleID("intercept.cancel")
    public static let interceptTerms = RuleID("intercept.terms")
    public static let interceptPayment = RuleID("intercept.payment")
    public static let interceptPaymentLoad = RuleID("intercept.payment-load")
    public static let schemeNeverExternal = RuleID("scheme.never-external")
    public static let schemeAboutBlank = RuleID("scheme.about-blank")
    public static let subframeWeb = RuleID("subframe.web")
    public static let subframeLoadable = RuleID("subframe.loadable")
    public static let subframeNotWeb = RuleID("subframe.not-web")
    public static let subframeNoGesture = RuleID("subframe.no-gesture")
    public static let iosUniversalLink = RuleID("ios.universal-link")
    public static let androidAppLink = RuleID("android.app-link")
    public static let customSchemeApp = RuleID("custom-scheme.app")
    public static let customSchemeSystemApp = RuleID("custom-scheme.system-app")
    public static let customSchemeNoApp = RuleID("custom-scheme.no-app")
    public static let customSchemeUnsafe = RuleID("custom-scheme.unsafe")
    public static let intentIOS = RuleID("intent.ios")
    public static let intentMalformed = RuleID("intent.malformed")
    public static let intentUnsafe = RuleID("intent.unsafe")
    public static let intentHost = RuleID("intent.host")
    public static let intentApp = RuleID("intent.app")
    public static let intentFallback = RuleID("intent.fallback")
    public static let intentNoApp = RuleID("intent.no-app")
    public static let webOwnHost = RuleID("web.own-host")
    public static let webInsecure = RuleID("web.insecure")
    public static let webGoodlist = RuleID("web.goodlist")
    public static let webPickyPage = RuleID("web.picky-page")
    public static let webPickyPageFromPayment = RuleID("web.picky-page-from-payment")
    public static let webPickyPageNewWindow = RuleID("web.picky-page-new-window")
    public static let webRedirectWebView = RuleID("web.redirect-webview")
    public static let webRedirectBrowser = RuleID("web.redirect-browser")

    /// Every rule id the engine can return, in the order the procedure tries them.
    public static let all: [RuleID] = [
        .urlMalformed, .interceptComplete, .interceptCancel, .interceptTerms, .interceptPaymentLoad, .interceptPayment,
        .schemeNeverExternal, .schemeAboutBlank, .subframeWeb, .subframeLoadable, .subframeNotWeb, .subframeNoGesture,
        .iosUniversalLink, .androidAppLink, .customSchemeApp, .customSchemeSystemApp, .customSchemeNoApp,
        .customSchemeUnsafe, .intentIOS, .intentMalformed, .intentUnsafe, .intentHost, .intentApp, .intentFallback, .intentNoApp,
        .webOwnHost, .webInsecure, .webGoodlist, .webPickyPage, .webPickyPageFromPayment, .webPickyPageNewWindow,
        .webRedirectWebView, .webRedirectBrowser,
    ]
}

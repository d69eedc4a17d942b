// A flow: a recorded page sequence, the policy and device it runs on, what the user does, and what must happen.
// Loaded from `flow.yaml` (FlowLoader); documented in Pages/README.md.
import AppSwitch
import Foundation
import NavigationPolicy
import PlainviewConfig

/// One recorded page sequence with everything needed to replay it.
public struct Flow: Sendable {
    public var name: String
    public var description: String
    /// The flow file as the user named it (for messages).
    public var file: String
    public var policy: Policy
    /// The OS's answers from the environment (installed apps), before any branch choice.
    public var system: any SystemServices
    /// Each installed app's simulated behaviour, by app name.
    public var apps: [String: AppBehaviour]
    /// The app embedding the web view (receives paymentUrl and reloads the payment page).
    public var hostApp: String
    /// The first URL the host app loads in its web view (default: the policy's paymentUrl).
    public var start: String
    public var pages: [RecordedPage]
    public var steps: [FlowStep]
    public var assumptions: Assumptions
    public var expect: Expectations
    public var limits: Limits
    /// JavaScript hooks the host app registers (Swedbank Pay's plain web view guide "Adding JavaScript Hooks"): handler name (iOS
    /// `messageHandlers.NAME`) or `object.method` (Android) → what a call means (`complete` or `canceled`).
    public var hooks: [String: Outcome.Kind]
    /// Engine mode: the User-Agent the engine's pages see (nil: the engine's mobile web-view default).
    public var userAgent: String?
    /// Answers requests no recorded page answers (the payment-url helper endpoints): method, URL → response.
    public var responder: (@Sendable (_ method: String, _ url: String) -> RecordedResponse?)?
    /// The host app's web view settings (popup blocking, multiple windows), from the environment.
    public var webView: Environment.WebViewSettings
    /// The phone's default browser, as the environment says (nil: the platform's; `--explore` may branch on it).
    public var defaultBrowser: SystemBrowser?
    /// `plainview record`: every request goes to the real servers through this network instead of `pages`.
    public var liveNetwork: (any LiveNetwork)?

    public init(
        name: String, description: String = "", file: String = "", policy: Policy,
        system: any SystemServices = NoApps(), apps: [String: AppBehaviour] = [:], hostApp: String = "app",
        start: String? = nil, pages: [RecordedPage] = [], steps: [FlowStep] = [],
        assumptions: Assumptions = Assumptions(), expect: Expectations = Expectations(), limits: Limits = Limits(),
        hooks: [String: Outcome.Kind] = [:], responder: (@Sendable (String, String) -> RecordedResponse?)? = nil,
        webView: Environment.WebViewSettings = Environment.WebViewSettings()
    ) {
        self.name = name
        self.description = description
        self.file = file
        self.policy = policy
        self.system = system
        self.apps = apps
        self.hostApp = hostApp
        self.start = start ?? policy.paymentURL
        self.pages = pages
        self.steps = steps
        self.assumptions = assumptions
        self.expect = expect
        self.limits = limits
        self.hooks = hooks
        self.responder = responder
        self.webView = webView
    }
}

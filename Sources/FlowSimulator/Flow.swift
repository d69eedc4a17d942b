// A flow: a recorded page sequence, the policy and device it runs on, what the user does, and what must happen.
// Loaded from `flow.yaml` (FlowLoader); documented in Pages/README.md.
import AppSwitch
import Foundation
import NavigationPolicy

/// Where a flow comes from. A seam for other recorders: a HAR import adds `case har(String)`, its
/// classification in `FlowLoader.sources(_:)` and its reader in `FlowLoader.load(_:)`.
public enum FlowSource: Sendable, Hashable {
    /// A `flow.yaml` file.
    case flowFile(String)

    public var path: String {
        switch self {
        case .flowFile(let p): p
        }
    }
}

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

    public init(name: String, description: String = "", file: String = "", policy: Policy,
                system: any SystemServices = NoApps(), apps: [String: AppBehaviour] = [:], hostApp: String = "app",
                start: String? = nil, pages: [RecordedPage] = [], steps: [FlowStep] = [],
                assumptions: Assumptions = Assumptions(), expect: Expectations = Expectations(), limits: Limits = Limits(),
                hooks: [String: Outcome.Kind] = [:], responder: (@Sendable (String, String) -> RecordedResponse?)? = nil,
                webView: Environment.WebViewSettings = Environment.WebViewSettings()) {
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

/// Which browsing context a recorded page is served to.
public enum PageContext: String, Sendable, Hashable, Codable, CaseIterable {
    /// The host app's web view.
    case webview
    /// The system browser (Safari / Chrome).
    case browser
}

/// A recorded response for one URL (and optionally one method and context).
public struct RecordedPage: Sendable {
    public var url: String
    /// Upper-case method; nil matches any.
    public var method: String?
    /// Restricts the page to the web view or the browser; nil serves both.
    public var context: PageContext?
    /// Served in order; the last one repeats.
    public var responses: [RecordedResponse]
    /// A cookie (`name` or `name=value`) the request must carry, set earlier in the same context.
    public var requireCookie: String?
    /// Served when the required cookie is missing (default: a 403 page saying so).
    public var withoutCookie: RecordedResponse?
    /// Line in the flow file (for messages).
    public var line: Int?

    public init(url: String, method: String? = nil, context: PageContext? = nil, responses: [RecordedResponse],
                requireCookie: String? = nil, withoutCookie: RecordedResponse? = nil, line: Int? = nil) {
        self.url = url
        self.method = method
        self.context = context
        self.responses = responses
        self.requireCookie = requireCookie
        self.withoutCookie = withoutCookie
        self.line = line
    }
}

extension RecordedPage {
    /// What a request without the required cookie gets: `withoutCookie`, else a 403 "session expired" page.
    public var missingCookieResponse: RecordedResponse {
        withoutCookie ?? RecordedResponse(
            status: 403, headers: [.init("Content-Type", "text/html")],
            html: "<html><head><title>Session expired</title></head><body><p>Your session has expired.</p></body></html>")
    }

    /// True when a request's `Cookie` header values carry the page's `requireCookie` (`name` or
    /// `name=value`); true for a page that requires none. What `serve --pages` checks for a real browser.
    public func isSatisfied(byCookieHeaders headers: [String]) -> Bool {
        guard let requirement = requireCookie else { return true }
        let (name, value) = CookieJar.split(requirement)
        for header in headers {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.first.map({ $0.trimmingCharacters(in: .whitespaces) }) == name else { continue }
                let v = kv.count == 2 ? kv[1].trimmingCharacters(in: .whitespaces) : ""
                if value == nil || v == value { return true }
            }
        }
        return false
    }
}

/// One HTTP response.
public struct RecordedResponse: Sendable, Hashable {
    public var status: Int
    /// Header name/value pairs in order (names as written).
    public var headers: [Header]
    public var body: [UInt8]
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(status: Int = 200, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int = 200, headers: [Header] = [], html: String) {
        self.init(status: status, headers: headers, body: Array(html.utf8))
    }

    /// The first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

/// What the user does, in order, when nothing happens by itself.
public enum FlowStep: Sendable, Hashable, CustomStringConvertible {
    /// Tap a link, button or form on the front page (web view or browser), found by its text or URL.
    case tap(text: String?, url: String?)
    /// Answer the browser's "Open in …?" prompt.
    case accept
    case decline
    /// The user, in app NAME, completes / cancels / …
    case app(name: String, outcome: AppBehaviour.Outcome)
    /// The user switches back to the host app (the app switcher), without any URL.
    case switchToApp

    public var description: String {
        switch self {
        case .tap(let text, let url):
            if let text { return "tap '\(text)'" }
            return "tap \(url ?? "?")"
        case .accept: return "accept the prompt"
        case .decline: return "decline the prompt"
        case .app(let name, let outcome): return "\(name): \(outcome.rawValue)"
        case .switchToApp: return "switch back to the app"
        }
    }
}

/// Fixed answers to the world's uncertain points for a normal (non-explore) run. `--explore` ignores them
/// and tries every answer.
public struct Assumptions: Sendable, Hashable {
    /// Per host (normalised, lower case): universal-link / app-link attempts in order; `true` = the link opens
    /// the app. After the list, links work. The key `*` applies to every host.
    public var universalLinks: [String: [Bool]]
    /// Apps (by name) that are not installed.
    public var missingApps: Set<String>
    /// The browser blocks automatic (non-gesture) redirects to an app (intent: / custom scheme).
    public var blockAutomaticAppRedirects: Bool

    public init(universalLinks: [String: [Bool]] = [:], missingApps: Set<String> = [], blockAutomaticAppRedirects: Bool = false) {
        self.universalLinks = universalLinks
        self.missingApps = missingApps
        self.blockAutomaticAppRedirects = blockAutomaticAppRedirects
    }
}

/// What a flow must end with.
public struct Expectations: Sendable, Hashable {
    public var outcome: Outcome.Kind?
    public var hops: Int?
    /// `webview`, `browser` or `app NAME`.
    public var endsIn: String?
    /// Apps launched, in order of first launch (the host app included when the OS opened it).
    public var appsOpened: [String]?
    /// Text the outcome's reason must contain.
    public var reasonContains: String?
    /// Explore: the outcome every branch must reach, unless a `branches` allowance matches it.
    public var everyBranch: Outcome.Kind?
    /// What the static model predicts where it cannot see what a real engine does (computed URLs, `document.write`,
    /// user-agent branches): in model mode this outcome, on every branch, is all that is checked; the other
    /// expectations are the engine's truth.
    public var modelOutcome: Outcome.Kind?
    public var branches: [BranchAllowance]

    public init(outcome: Outcome.Kind? = nil, hops: Int? = nil, endsIn: String? = nil, appsOpened: [String]? = nil,
                reasonContains: String? = nil, everyBranch: Outcome.Kind? = nil, branches: [BranchAllowance] = []) {
        self.outcome = outcome
        self.hops = hops
        self.endsIn = endsIn
        self.appsOpened = appsOpened
        self.reasonContains = reasonContains
        self.everyBranch = everyBranch
        self.branches = branches
    }
}

/// An explore allowance: branches whose choices include every label in `when` may end in `outcome`.
public struct BranchAllowance: Sendable, Hashable {
    /// Choice labels (`universal-link-fails`, `app-missing:Swish`, `prompt-declined`, `redirect-blocked`);
    /// a label without `:detail` matches any detail.
    public var when: [String]
    public var outcome: Outcome.Kind
    public init(when: [String], outcome: Outcome.Kind) { self.when = when; self.outcome = outcome }
}

/// Bounds that stop a run or an exploration.
public struct Limits: Sendable, Hashable {
    /// World events per run before the run is stopped as `loop`.
    public var steps: Int
    /// Same URL loaded automatically (redirect/refresh/script) in one context without a user step in between.
    public var repeats: Int
    /// Branches explored per flow.
    public var branches: Int
    /// Choice points per branch.
    public var depth: Int

    public init(steps: Int = 400, repeats: Int = 8, branches: Int = 256, depth: Int = 16) {
        self.steps = steps
        self.repeats = repeats
        self.branches = branches
        self.depth = depth
    }
}

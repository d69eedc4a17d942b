// What a served page does next: the Sendable values PageScan returns. Every URL is absolute.

/// The result of scanning one HTML page.
public struct PageScanResult: Sendable, Hashable, Codable {
    /// The first declarative refresh that counts, if any.
    public var refresh: Refresh?
    public var links: [Link]
    public var forms: [Form]
    public var frames: [Frame]
    public var scriptNavigations: [ScriptNavigation]
    /// Calls into the host app (`window.webkit.messageHandlers.NAME.postMessage`, Android JS interfaces).
    public var hooks: [Hook]
    /// The page's character encoding as the Encoding Standard names it (`windows-1252`, `shift_jis` …), from
    /// the Content-Type header's charset, else the page's first `<meta charset>` (or content-type `<meta>`);
    /// nil when neither declares one this machine knows. A browser submits the page's forms in it.
    public var charset: String?
    /// Buttons that belong to no form (`<button>`, `<input type=button|submit|image>`): what a tap on them does is
    /// only their `onclick` navigation, if any.
    public var buttons: [Button] = []

    /// The keys of `plainview extract`'s JSON (which leaves buttons out: they are for the simulator's taps).
    private enum CodingKeys: String, CodingKey {
        case refresh, links, forms, frames, scriptNavigations, hooks, charset, truncations
    }

    /// Parts of the page passed over because they broke a per-element limit; empty for ordinary pages.
    public var truncations: [Truncation]

    public init(
        refresh: Refresh? = nil, links: [Link] = [], forms: [Form] = [], frames: [Frame] = [],
        scriptNavigations: [ScriptNavigation] = [], hooks: [Hook] = [], truncations: [Truncation] = []
    ) {
        self.refresh = refresh
        self.links = links
        self.forms = forms
        self.frames = frames
        self.scriptNavigations = scriptNavigations
        self.hooks = hooks
        self.truncations = truncations
    }

    /// A limit the page broke, and what was left out because of it.
    public struct Truncation: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            /// Start tags with more than `limit` attributes: the attributes after the first `limit` were not read.
            case attributes
            /// Attribute values longer than `limit` bytes: the bytes after the first `limit` were not read.
            case attributeValue = "attribute-value"
            /// URLs longer than `limit` bytes (from scripts or attributes): not reported.
            case url
            /// Findings of one kind past the page's first `limit` (see `PageScanner.maxFindingsPerKind`): the later
            /// ones, in document order, are not reported.
            case links, forms, fields, frames, buttons, hooks, refreshes
            case scriptNavigations = "script-navigations"
            /// `.submit()` calls in scripts: past the first `limit`, they submit nothing (no form is marked `autoSubmit`).
            case formSubmissions = "form-submissions"
            /// Inline-script statements longer than `limit` bytes, analysed in parts (nothing is dropped; code in a
            /// function split across two parts is taken as code that runs where it stands).
            case scriptStatement = "script-statement"
            /// Elements opened deeper than `limit` (512, as in WebKit and Blink): each closes the element open
            /// before it at that depth, so they are siblings, as a browser makes them (nothing is left out).
            case depth
        }
        public var kind: Kind
        /// How many elements (`attributes`), values (`attribute-value`) or URLs (`url`) were cut; for a kind of
        /// finding, how many the page holds.
        public var count: Int
        public var limit: Int
        /// How many attributes (`attributes`), bytes (`attribute-value`), URLs (`url`) or findings were left out.
        public var dropped: Int
        public init(kind: Kind, count: Int, limit: Int, dropped: Int) {
            self.kind = kind; self.count = count; self.limit = limit; self.dropped = dropped
        }
    }

    /// A declarative refresh: after `delay` seconds, navigate to `url` (the document itself when none was given).
    public struct Refresh: Sendable, Hashable, Codable {
        public var delay: Int
        public var url: String
        public init(delay: Int, url: String) { self.delay = delay; self.url = url }
    }

    /// `<a href>` or `<area href>`.
    public struct Link: Sendable, Hashable, Codable {
        public var url: String
        public var text: String
        public var target: String?
        /// Its `onclick` is `return confirm(…)`: it is followed only when the dialog answers OK.
        public var condition: ScriptCondition?
        /// A `javascript:` link: what its code does when tapped. `url` is then where it navigates (or the
        /// `javascript:` URL itself when its code does neither).
        public var script: Script?
        public enum Script: Sendable, Hashable, Codable {
            /// Its code navigates to `url` (a script navigation, by the user's tap).
            case navigates
            /// Its code submits form N of the page (`forms[N]`).
            case submits(form: Int)
        }
        public init(
            url: String, text: String, target: String? = nil, condition: ScriptCondition? = nil, script: Script? = nil
        ) {
            self.url = url; self.text = text; self.target = target; self.condition = condition; self.script = script
        }
    }

    public struct Form: Sendable, Hashable, Codable {
        public var action: String
        /// `GET` or `POST` (upper case).
        public var method: String
        public var fields: [Field]
        /// True when the page submits the form by itself on load.
        public var autoSubmit: Bool
        public var target: String?
        /// For a form the page submits by itself: where that submission comes among the page's automatic
        /// actions (see `ScriptNavigation.runOrder`).
        public var autoSubmitOrder: Int?
        /// For a form the page submits by itself only under a condition (every submission of it waits on one):
        /// that condition (see `ScriptNavigation.condition`).
        public var autoSubmitCondition: ScriptCondition?
        /// The form's buttons (its own, and those naming it with `form=`), in document order.
        public var buttons: [Button] = []
        private enum CodingKeys: String, CodingKey {
            case action, method, fields, autoSubmit, target, autoSubmitOrder, autoSubmitCondition
        }
        public init(
            action: String, method: String, fields: [Field], autoSubmit: Bool, target: String? = nil,
            autoSubmitOrder: Int? = nil, autoSubmitCondition: ScriptCondition? = nil, buttons: [Button] = []
        ) {
            self.action = action; self.method = method; self.fields = fields
            self.autoSubmit = autoSubmit; self.target = target; self.autoSubmitOrder = autoSubmitOrder
            self.autoSubmitCondition = autoSubmitCondition; self.buttons = buttons
        }
        public struct Field: Sendable, Hashable, Codable {
            public var name: String
            public var value: String
            public init(name: String, value: String) { self.name = name; self.value = value }
        }
    }

    /// `<button>` or `<input type=submit|button|image|reset>`: what a user can tap besides links.
    public struct Button: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            /// Submits its form (`<button>` without a type, `type=submit`, `<input type=submit>`).
            case submit
            /// Submits its form, at the point tapped (`<input type=image>`).
            case image
            /// Does nothing by itself; its `onclick` may navigate.
            case button
            case reset
        }
        public var kind: Kind
        /// What the user reads: a `<button>`'s text, an input's `value` (an image's `alt`), else its `aria-label`.
        public var label: String
        public var ariaLabel: String?
        /// The submitter's `name` and `value`, sent with the form when it submits it.
        public var name: String?
        public var value: String?
        /// Where its `onclick` navigates (a literal URL, resolved), if anywhere.
        public var onclickURL: String?
        /// Its `onclick` is `return confirm(…)`: it does what it does only when the dialog answers OK.
        public var condition: ScriptCondition?
        public init(
            kind: Kind, label: String, ariaLabel: String? = nil, name: String? = nil, value: String? = nil,
            onclickURL: String? = nil, condition: ScriptCondition? = nil
        ) {
            self.kind = kind; self.label = label; self.ariaLabel = ariaLabel; self.name = name; self.value = value
            self.onclickURL = onclickURL; self.condition = condition
        }
    }

    /// `<iframe src>` or `<frame src>`.
    public struct Frame: Sendable, Hashable, Codable {
        public var url: String
        public var name: String?
        public init(url: String, name: String? = nil) { self.url = url; self.name = name }
    }

    public struct ScriptNavigation: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            case assign // location = / location.href = / location.assign()
            case replace // location.replace()
            case windowOpen = "window-open"
            /// `document.getElementById(…).click()` (or `querySelector("#…")`) on a link: the link is followed
            /// as if followed by the user, without a gesture; `target` is the link's.
            case click
        }
        public var url: String
        public var kind: Kind
        /// True when it runs on load (inline script or `onload`), false when in a handler that needs a tap.
        public var onLoad: Bool
        /// Milliseconds a `setTimeout(…, N)` waits before it runs (N a number literal); nil: it runs when reached.
        public var delay: Int?
        /// For a navigation that runs by itself: where it comes among the page's automatic actions (script
        /// navigations and form submissions, counted from 0) in the order a browser starts them. Code that runs
        /// while the page parses (an inline script's top level) comes first, in document order; then code that
        /// runs once it has parsed or loaded (`onload`, `DOMContentLoaded`, jQuery ready, module scripts); then
        /// timers. nil: it needs a tap.
        public var runOrder: Int?
        /// The window navigated when it is not the script's own: `_top` for `top.location …` (or
        /// `window.top.location`), `_parent` for `parent.location …`. A framed 3-D Secure result page sends the
        /// whole payment page on this way. nil: the script's own window.
        public var target: String?
        /// What it waits on besides running (a dialog's answer, a network answer); nil: nothing.
        public var condition: ScriptCondition?
        public init(
            url: String, kind: Kind, onLoad: Bool, delay: Int? = nil, runOrder: Int? = nil, target: String? = nil,
            condition: ScriptCondition? = nil
        ) {
            self.url = url; self.kind = kind; self.onLoad = onLoad; self.delay = delay; self.runOrder = runOrder
            self.target = target; self.condition = condition
        }
    }

    public struct Hook: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            case webkitMessageHandler = "webkit-message-handler"
            case androidInterface = "android-interface"
        }
        public var kind: Kind
        /// Handler name (iOS) or `object.method` (Android).
        public var name: String
        /// The argument's source text, if any.
        public var argument: String?
        public var onLoad: Bool
        public init(kind: Kind, name: String, argument: String? = nil, onLoad: Bool) {
            self.kind = kind; self.name = name; self.argument = argument; self.onLoad = onLoad
        }
    }
}

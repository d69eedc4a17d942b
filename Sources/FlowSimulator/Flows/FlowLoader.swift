// Reading flow files (`flow.yaml`): strict keys, every error names the file, line and key.
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewURL

public enum FlowLoader {
    /// The flow files named by `paths`: a flow file, a flow folder (holding `flow.yaml`), or a folder of flows.
    public static func discover(_ paths: [String]) throws(ConfigError) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for p in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: p, isDirectory: &isDir) else {
                throw ConfigError(file: p, "no such file or folder; expected a flow file, a flow folder or a folder of flows")
            }
            if !isDir.boolValue { out.append(p); continue }
            let direct = (p as NSString).appendingPathComponent("flow.yaml")
            if fm.fileExists(atPath: direct) { out.append(direct); continue }
            let found = findFlows(in: p, depth: 3)
            guard !found.isEmpty else { throw ConfigError(file: p, "no flow.yaml in this folder or its subfolders") }
            out += found
        }
        return out
    }

    private static func findFlows(in dir: String, depth: Int) -> [String] {
        guard depth > 0, let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var out: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let sub = (dir as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sub, isDirectory: &isDir), isDir.boolValue else { continue }
            let f = (sub as NSString).appendingPathComponent("flow.yaml")
            if FileManager.default.fileExists(atPath: f) { out.append(f) } else { out += findFlows(in: sub, depth: depth - 1) }
        }
        return out
    }

    /// The flow sources named by `paths` (see `discover`).
    public static func sources(_ paths: [String]) throws(ConfigError) -> [FlowSource] {
        try discover(paths).map { FlowSource.flowFile($0) }
    }

    /// Reads one flow source.
    public static func load(_ source: FlowSource) throws(ConfigError) -> Flow {
        switch source {
        case .flowFile(let path): try load(file: path)
        }
    }

    /// Every flow named by `paths` (see `discover`).
    public static func load(_ paths: [String]) throws(ConfigError) -> [Flow] {
        var flows: [Flow] = []
        for s in try sources(paths) { flows.append(try load(s)) }
        return flows
    }

    /// Reads one flow file. With `confinedTo`, a page `file:` that resolves (symlinks followed) outside that
    /// folder is an error: what `serve --pages` uses, so nothing outside the served folder is ever read for a page.
    /// With `readingPagesWhenRun`, page files are checked now and read only when the flow runs
    /// (`Flow.loadingPageFiles()`), so a suite never holds every flow's pages at once (what `simulate` does).
    public static func load(
        file: String, confinedTo root: String? = nil, readingPagesWhenRun: Bool = false
    ) throws(ConfigError) -> Flow {
        let text = try ConfigNode.readText(path: file)
        let folder = (file as NSString).deletingLastPathComponent
        return try parse(text, file: file, folder: folder, confinedTo: root, readingPagesWhenRun: readingPagesWhenRun)
    }

    static let flowKeys = [
        "name", "description", "policy", "environment", "hostApp", "start", "pages", "steps",
        "assume", "expect", "limits", "hooks", "helpers", "userAgent",
    ]
    static let limitKeys = ["steps", "repeats", "branches", "depth"]
    /// A step written as a mapping has exactly one of these keys.
    static let stepKeys = ["tap", "type", "app", "accept", "decline"]
    static let tapKeys = ["text", "url"]
    static let typeKeys = ["field", "text"]
    static let appStepKeys = ["name", "then"]
    static let assumeKeys = ["universalLinks", "missingApps", "blockAutomaticRedirects", "hostKilled"]
    static let expectKeys = [
        "outcome", "hops", "endsIn", "appsOpened", "reasonContains", "everyBranch", "branches", "modelOutcome",
    ]
    static let branchKeys = ["when", "outcome"]

    /// The keys of an environment as the simulator reads it: `EnvironmentFile`'s, with the app behaviours'.
    public static let environmentShape = EnvironmentFile.shape.replacing(["apps", "behaviour"], with: AppBehaviour.shape)

    /// The keys of a flow file as a tree (the lists `parse` checks), for checking schemas/flow.schema.json.
    public static let shape = ConfigKeys(
        flowKeys,
        nested: [
            "policy": PolicyFile.shape,
            "environment": environmentShape,
            "pages": ConfigKeys(
                pageKeys,
                nested: ["responses": ConfigKeys(sequencedResponseKeys), "withoutCookie": ConfigKeys(responseKeys)]),
            "steps": ConfigKeys(
                stepKeys,
                nested: ["tap": ConfigKeys(tapKeys), "type": ConfigKeys(typeKeys), "app": ConfigKeys(appStepKeys)]),
            "assume": ConfigKeys(assumeKeys),
            "expect": ConfigKeys(expectKeys, nested: ["branches": ConfigKeys(branchKeys)]),
            "limits": ConfigKeys(limitKeys),
            "helpers": ConfigKeys(HelperBridge.keys),
        ])

    /// Parses flow text; `folder` resolves relative `file:`/policy/environment paths. With `bodies`, a page's
    /// `file:` is looked up there by name instead of on disk (a HAR replayed in memory); with `root`, a page
    /// file outside that folder is an error (what `serve --pages` serves).
    public static func parse(
        _ text: String, file: String, folder: String, confinedTo root: String? = nil,
        bodies: [String: Data]? = nil, readingPagesWhenRun: Bool = false
    ) throws(ConfigError) -> Flow {
        let document = try ConfigNode.parse(text, file: file)
        let f = try document.fields(flowKeys)
        let defaultName = ((folder as NSString).lastPathComponent)
        let name = try f.value("name")?.string() ?? (defaultName.isEmpty ? file : defaultName)
        let description = try f.value("description")?.string() ?? ""

        let policyNode = try f.required("policy")
        let policy = try ConfigBridge.policy(policyNode, folder: folder)
        let env: ConfigBridge.LoadedEnvironment
        if let e = f.value("environment") {
            env = try ConfigBridge.environment(e, folder: folder)
        } else {
            env = .init(system: NoApps(), apps: [:], appNames: [])
        }

        // The host app: named, or the environment app marked `behaviour: {host: true}`, or the one whose
        // schemes include the policy's callbackScheme.
        var hostApp = "app"
        if let h = f.value("hostApp") {
            hostApp = try h.string()
            guard env.appNames.contains(hostApp) else { throw h.error("no app named '\(hostApp)' in the environment") }
        } else if let marked = env.appNames.first(where: { env.apps[$0]?.host == true }) {
            hostApp = marked
        } else if let scheme = policy.callbackScheme, let app = env.system.customSchemeApp(for: scheme.lowercased()) {
            hostApp = app
        }

        var start = policy.paymentURL
        if let s = f.value("start") {
            start = try s.string()
            guard URLTools.isWeb(start), URLTools.host(start) != nil else {
                throw s.error("expected an absolute http(s) URL, got '\(start)'")
            }
        }

        var pages: [RecordedPage] = []
        if let p = f.value("pages") {
            pages = try parsePages(p, folder: folder, root: root, bodies: bodies, lazy: readingPagesWhenRun)
        }
        var steps: [FlowStep] = []
        if let s = f.value("steps") { for item in try s.sequence() { steps.append(try parseStep(item)) } }
        var assumptions = Assumptions()
        if let a = f.value("assume") { assumptions = try parseAssume(a, apps: env.appNames) }
        var expect = Expectations()
        if let e = f.value("expect") { expect = try parseExpect(e) }
        var limits = Limits()
        if let l = f.value("limits") {
            let lf = try l.fields(limitKeys)
            func positive(_ k: String, _ d: Int) throws(ConfigError) -> Int {
                guard let n = lf[k] else { return d }
                let v = try n.int()
                guard v > 0, v <= 100_000 else { throw n.error("expected a number from 1 to 100000") }
                return v
            }
            limits = Limits(
                steps: try positive("steps", limits.steps), repeats: try positive("repeats", limits.repeats),
                branches: try positive("branches", limits.branches), depth: try positive("depth", limits.depth))
        }
        var hooks: [String: Outcome.Kind] = [:]
        if let h = f.value("hooks") {
            for (name, value) in try h.mapping() {
                let kind = try outcomeKind(value)
                guard kind == .complete || kind == .canceled else { throw value.error("expected complete or canceled") }
                hooks[name] = kind
            }
        }
        let responder = try f.value("helpers").map { n throws(ConfigError) in try HelperBridge.responder(n) }
        for page in pages {
            for app in Set(page.afterApp.values) where !env.appNames.contains(app) {
                throw ConfigError(
                    file: file, line: page.line, key: "pages",
                    "\(page.url): afterApp '\(app)' names an app that is not in the environment (\(env.appNames.sorted().joined(separator: ", ")))"
                )
            }
        }
        for step in steps {
            if case .app(let n, _) = step, !env.appNames.contains(n) {
                throw ConfigError(
                    file: file, line: f.value("steps")?.line, key: "steps",
                    "step '\(step)' names an app that is not in the environment")
            }
        }
        if let only = env.webView.openBrowser.platform, only != policy.platform {
            throw ConfigError(
                file: file, line: f.value("environment")?.line, key: "environment",
                "webView.openBrowser: \(env.webView.openBrowser.rawValue) exists only on \(only.rawValue), and the policy's platform is \(policy.platform.rawValue)"
            )
        }
        if let browser = env.defaultBrowser, !SystemBrowser.choices(on: policy.platform).contains(browser) {
            throw ConfigError(
                file: file, line: f.value("environment")?.line, key: "environment",
                "defaultBrowser: expected \(SystemBrowser.choices(on: policy.platform).map(\.rawValue).joined(separator: " or ")) on \(policy.platform.rawValue) (the policy's platform), found \(browser.rawValue)"
            )
        }
        var flow = Flow(
            name: name, description: description, file: file, policy: policy, system: env.system, apps: env.apps,
            hostApp: hostApp, start: start, pages: pages, steps: steps, assumptions: assumptions, expect: expect,
            limits: limits, hooks: hooks, responder: responder, webView: env.webView)
        flow.userAgent = try f.value("userAgent")?.string()
        flow.defaultBrowser = env.defaultBrowser
        return flow
    }

    // MARK: pages

    static let pageKeys = [
        "url", "method", "in", "status", "headers", "location", "file", "body", "setCookie",
        "requireCookie", "withoutCookie", "responses",
    ]
    static let responseKeys = ["status", "headers", "location", "file", "body", "setCookie"]
    /// A response in a page's `responses` list may also wait for an app.
    static let sequencedResponseKeys = responseKeys + ["afterApp"]

    static func parsePages(
        _ node: ConfigNode, folder: String, root: String?, bodies: [String: Data]? = nil, lazy: Bool = false
    ) throws(ConfigError)
        -> [RecordedPage]
    {
        var out: [RecordedPage] = []
        if node.isMapping {
            // `pages: {URL: {…} | [{…}, …]}`
            for (url, value) in try node.mapping() {
                for item in try value.list() {
                    out.append(try parsePage(item, url: url, folder: folder, root: root, bodies: bodies, lazy: lazy))
                }
            }
        } else {
            for item in try node.sequence() {
                out.append(try parsePage(item, url: nil, folder: folder, root: root, bodies: bodies, lazy: lazy))
            }
        }
        return out
    }

    static func parsePage(
        _ node: ConfigNode, url keyURL: String?, folder: String, root: String?, bodies: [String: Data]? = nil, lazy: Bool = false
    )
        throws(ConfigError) -> RecordedPage
    {
        let f = try node.fields(keyURL == nil ? pageKeys : pageKeys.filter { $0 != "url" })
        let url: String
        if let keyURL { url = keyURL } else { url = try f.required("url").string() }
        guard URLTools.isWeb(url), URLTools.host(url) != nil else {
            throw node.error("expected an absolute http(s) URL, got '\(url)'", key: node.path + (keyURL == nil ? ".url" : ""))
        }
        var method: String?
        if let m = f.value("method") {
            let v = try m.string().uppercased()
            guard ["GET", "POST", "PUT", "HEAD"].contains(v) else { throw m.error("expected GET or POST, got '\(v)'") }
            method = v
        }
        var context: PageContext?
        if let c = f.value("in") {
            let v = try c.string()
            guard let pc = PageContext(rawValue: v) else { throw c.error("expected webview or browser, got '\(v)'") }
            context = pc
        }
        var responses: [RecordedResponse] = []
        var afterApp: [Int: String] = [:]
        if let rs = f.value("responses") {
            for key in ["status", "headers", "location", "file", "body", "setCookie"] where f[key] != nil {
                throw node.error("'\(key)' and 'responses' cannot both be given: put each response in the list")
            }
            for r in try rs.sequence() {
                let fields = try r.fields(sequencedResponseKeys)
                if let app = fields.value("afterApp") {
                    guard !responses.isEmpty else {
                        throw app.error(
                            "the first response is the server's answer before anything happened: it cannot wait for an app")
                    }
                    let name = try app.string()
                    guard !name.isEmpty else { throw app.error("expected the name of an app in the environment") }
                    afterApp[responses.count] = name
                }
                responses.append(
                    try parseResponse(r, fields: fields, folder: folder, root: root, bodies: bodies, lazy: lazy))
            }
            guard !responses.isEmpty else { throw rs.error("expected at least one response") }
        } else {
            responses = [try parseResponse(node, fields: f, folder: folder, root: root, bodies: bodies, lazy: lazy)]
        }
        var withoutCookie: RecordedResponse?
        if let w = f.value("withoutCookie") {
            withoutCookie = try parseResponse(
                w, fields: try w.fields(responseKeys), folder: folder, root: root, bodies: bodies, lazy: lazy)
        }
        let requireCookie = try f.value("requireCookie")?.string()
        if let rc = requireCookie, rc.isEmpty || rc.hasPrefix("=") {
            throw node.error("expected a cookie name or name=value", key: node.path + ".requireCookie")
        }
        var page = RecordedPage(
            url: url, method: method, context: context, responses: responses, requireCookie: requireCookie,
            withoutCookie: withoutCookie, line: node.line)
        page.afterApp = afterApp
        return page
    }

    static func parseResponse(
        _ node: ConfigNode, fields f: ConfigNode.Fields, folder: String, root: String?, bodies: [String: Data]? = nil,
        lazy: Bool = false
    ) throws(ConfigError) -> RecordedResponse {
        var headers: [RecordedResponse.Header] = []
        if let h = f.value("headers") {
            for (k, v) in try h.mapping() {
                for value in try v.strings() { headers.append(.init(k, value)) }
            }
        }
        if let l = f.value("location") { headers.append(.init("Location", try l.string())) }
        if let c = f.value("setCookie") { for v in try c.strings() { headers.append(.init("Set-Cookie", v)) } }
        var status = headers.contains { $0.name.lowercased() == "location" } ? 302 : 200
        if let s = f.value("status") {
            status = try s.int()
            guard (100...599).contains(status) else { throw s.error("expected an HTTP status from 100 to 599") }
        }
        if (300..<400).contains(status), status != 304, !headers.contains(where: { $0.name.lowercased() == "location" }) {
            throw node.error("a \(status) redirect needs a 'location' (or a Location header)")
        }
        var body: [UInt8] = []
        var pageFile: (path: String, size: Int)?
        if let file = f.value("file"), let b = f.value("body") {
            _ = b
            throw file.error("give either 'file' or 'body', not both")
        }
        if let file = f.value("file") {
            let rel = try file.string()
            let path = rel.hasPrefix("/") ? rel : (folder as NSString).appendingPathComponent(rel)
            if let root {
                let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
                let base = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
                guard resolved.hasPrefix(base + "/") else {
                    throw file.error("the page file '\(rel)' is outside the served folder")
                }
            }
            if bodies == nil, lazy {
                // Checked now (a flow that cannot run is an input error before any runs), read when the flow runs.
                guard let size = PageFile.readableSize(path) else {
                    throw file.error("cannot read the page file '\(rel)' (looked at \(path))")
                }
                pageFile = (path, size)
            } else {
                guard let data = bodies.map({ $0[rel] }) ?? FileManager.default.contents(atPath: path) else {
                    throw file.error("cannot read the page file '\(rel)' (looked at \(path))")
                }
                body = Array(data)
            }
        } else if let b = f.value("body") {
            body = Array(try b.string().utf8)
        }
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }), !body.isEmpty || (pageFile?.size ?? 0) > 0 {
            headers.append(.init("Content-Type", "text/html; charset=utf-8"))
        }
        if let pageFile { return RecordedResponse(status: status, headers: headers, file: PageFile(path: pageFile.path)) }
        return RecordedResponse(status: status, headers: headers, body: body)
    }

    // MARK: steps

    /// One step written as it is in a flow's `steps:` list (`tap: Pay`, `app: BankID complete`, `accept` …), read
    /// from text named `name` in messages (`--step 2`).
    public static func step(_ text: String, name: String) throws(ConfigError) -> FlowStep {
        try parseStep(try ConfigNode.parse(text, file: name))
    }

    static func parseStep(_ node: ConfigNode) throws(ConfigError) -> FlowStep {
        if node.isScalar {
            switch try node.string() {
            case "accept": return .accept
            case "decline": return .decline
            case "switch-to-app": return .switchToApp
            case let other:
                throw node.error("unknown step '\(other)'; expected accept, decline, switch-to-app, tap: …, or app: …")
            }
        }
        let entries = try node.mapping()
        guard entries.count == 1, let (key, value) = entries.first else {
            throw node.error(
                "a step is one of: tap: TEXT | tap: {text|url}, type: {field, text}, app: 'NAME complete|cancel|fail', accept, decline"
            )
        }
        guard stepKeys.contains(key) else {
            throw node.error(
                "unknown step '\(key)'; expected \(stepKeys.joined(separator: ", ")) or switch-to-app", key: value.path)
        }
        switch key {
        case "tap":
            if value.isScalar { return .tap(text: try value.string(), url: nil) }
            let tf = try value.fields(tapKeys)
            let text = try tf.value("text")?.string(), url = try tf.value("url")?.string()
            guard (text == nil) != (url == nil) else { throw value.error("give exactly one of 'text' or 'url'") }
            return .tap(text: text, url: url)
        case "type":
            let tf = try value.fields(typeKeys)
            let field = try tf.required("field").string()
            guard !field.isEmpty else { throw value.error("field: expected the form field's name attribute", key: "field") }
            return .type(field: field, text: try tf.required("text").string())
        case "app":
            var name: String, outcomeText: String
            if value.isScalar {
                let words = try value.string().split(separator: " ").map(String.init)
                guard words.count >= 2, let last = words.last else { throw value.error("expected 'NAME complete|cancel|fail'") }
                name = words.dropLast().joined(separator: " ")
                outcomeText = last
            } else {
                let af = try value.fields(appStepKeys)
                name = try af.required("name").string()
                outcomeText = try af.required("then").string()
            }
            guard let o = AppBehaviour.Outcome(rawValue: outcomeText), o != .wait else {
                throw value.error("expected complete, cancel or fail, got '\(outcomeText)'")
            }
            return .app(name: name, outcome: o)
        case "accept": return .accept
        case "decline": return .decline
        default:
            throw node.error(
                "unknown step '\(key)'; expected \(stepKeys.joined(separator: ", ")) or switch-to-app", key: value.path)
        }
    }

    // MARK: assume / expect

    static func parseAssume(_ node: ConfigNode, apps: [String]) throws(ConfigError) -> Assumptions {
        let f = try node.fields(assumeKeys)
        var a = Assumptions()
        func attempts(_ n: ConfigNode) throws(ConfigError) -> [Bool] {
            var out: [Bool] = []
            for item in try n.list() {
                switch try item.string() {
                case "works": out.append(true)
                case "fails", "fail": out.append(false)
                case let other: throw item.error("expected works or fails, got '\(other)'")
                }
            }
            return out
        }
        if let u = f.value("universalLinks") {
            if u.isMapping {
                for (host, v) in try u.mapping() { a.universalLinks[host.lowercased()] = try attempts(v) }
            } else {
                let list = try attempts(u)
                a.universalLinks["*"] = list.count == 1 ? Array(repeating: list[0], count: 64) : list
            }
        }
        if let k = f.value("hostKilled") { a.hostKilled = try k.bool() }
        if let m = f.value("missingApps") {
            for n in try m.list() {
                let name = try n.string()
                guard apps.contains(name) else { throw n.error("no app named '\(name)' in the environment") }
                a.missingApps.insert(name)
            }
        }
        if let b = f.value("blockAutomaticRedirects") { a.blockAutomaticAppRedirects = try b.bool() }
        return a
    }

    static func outcomeKind(_ n: ConfigNode) throws(ConfigError) -> Outcome.Kind {
        let v = try n.string()
        guard let k = Outcome.Kind(rawValue: v) else {
            throw n.error("expected one of \(Outcome.Kind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(v)'")
        }
        return k
    }

    static func parseExpect(_ node: ConfigNode) throws(ConfigError) -> Expectations {
        let f = try node.fields(expectKeys)
        var e = Expectations()
        if let o = f.value("outcome") { e.outcome = try outcomeKind(o) }
        if let h = f.value("hops") { e.hops = try h.int() }
        if let w = f.value("endsIn") { e.endsIn = try w.string() }
        if let a = f["appsOpened"] { e.appsOpened = a.isNull ? [] : try a.strings() }
        if let r = f.value("reasonContains") { e.reasonContains = try r.string() }
        if let b = f.value("everyBranch") { e.everyBranch = try outcomeKind(b) }
        if let m = f.value("modelOutcome") { e.modelOutcome = try outcomeKind(m) }
        if let bs = f.value("branches") {
            for item in try bs.sequence() {
                let bf = try item.fields(branchKeys)
                let labels = try bf.required("when").strings()
                let known = ChoiceOracle.branchLabels
                for l in labels where !known.contains(where: { l == $0 || l.hasPrefix($0 + ":") }) {
                    throw item.error(
                        "unknown branch label '\(l)'; expected one of \(known.joined(separator: ", ")) (optionally :DETAIL)",
                        key: item.path + ".when")
                }
                e.branches.append(BranchAllowance(when: labels, outcome: try outcomeKind(try bf.required("outcome"))))
            }
        }
        return e
    }
}

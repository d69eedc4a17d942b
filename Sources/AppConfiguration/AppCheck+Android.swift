import NavigationPolicy
import PlainviewURL

extension AppCheck {
    func checkAndroid(_ a: Android) -> [AppCheckFinding] {
        var out: [AppCheckFinding] = []
        let file = a.manifest.file
        if a.package == nil {
            out.append(
                AppCheckFinding(
                    platform: "android", verdict: .warn, subject: "package",
                    message:
                        "the application id is not known (no package attribute, or a build placeholder): give --package; intents naming a package and assetlinks.json were not checked",
                    file: file, line: nil))
        }
        // An app with a VIEW filter for https links of a host means to take them (App Links): a link it means to
        // take must reach it, verified.
        let appLinks = a.manifest.components.contains { c in
            c.filters.contains {
                $0.actions.contains(AndroidIntentFilter.view) && $0.categories.contains(AndroidIntentFilter.browsable)
                    && $0.schemes.contains("https") && !$0.hosts.isEmpty
            }
        }
        for var r in returns(on: .android) {
            if r.requiredWithAppLinks && appLinks && r.need == .recommended {
                r.need = .required
                r.why += " (an App Link: the manifest takes https links)"
            }
            out += androidReturn(r, a)
        }
        return out
    }

    /// How a return arrives: a link a browser or app opens (`ACTION_VIEW`, BROWSABLE) or an `intent:` URL
    /// (its own action, package and data; Chrome adds BROWSABLE). `startActivity` adds DEFAULT.
    private func androidReturn(_ r: AppReturn, _ a: Android) -> [AppCheckFinding] {
        let subject = AppCheck.subject(r)
        let file = a.manifest.file
        func finding(_ v: AppCheckFinding.Verdict, _ m: String, _ l: Int?, file f: String? = nil) -> AppCheckFinding {
            AppCheckFinding(platform: "android", verdict: v, subject: subject, message: m, file: f ?? file, line: l)
        }
        var action = AndroidIntentFilter.view
        var data = r.url
        var viaIntent = false
        if r.url.lowercased().hasPrefix("intent:") {
            let intent: AndroidIntent
            do { intent = try AndroidIntent.parse(r.url) } catch {
                return [finding(AppCheck.miss(r), "not an intent URL Android can read: \(error)", nil, file: nil)]
            }
            viaIntent = true
            action = intent.action ?? AndroidIntentFilter.view
            data = intent.data ?? ""
            if let package = intent.package, let mine = a.package, package != mine {
                return [
                    finding(
                        AppCheck.miss(r),
                        "the intent names package \(package); the app is \(mine), so Android starts that app or none", nil)
                ]
            }
        }
        guard let scheme = WebURL(data)?.scheme ?? data.split(separator: ":").first.map({ String($0) }), !scheme.isEmpty else {
            return [finding(AppCheck.miss(r), "carries no URI to match an intent filter against", nil, file: nil)]
        }
        let categories = [AndroidIntentFilter.browsable, AndroidIntentFilter.defaultCategory]
        let matching = a.manifest.components.filter { $0.enabled }.flatMap { c in
            c.filters.filter { $0.matches(action: action, categories: categories, url: data) }.map { (component: c, filter: $0) }
        }
        guard let (component, filter) = matching.first else {
            return [
                finding(AppCheck.miss(r), Self.nearestMiss(action: action, categories: categories, url: data, a.manifest), nil)
            ]
        }
        var out: [AppCheckFinding] = []
        switch component.exported {
        case false?:
            out.append(
                finding(
                    AppCheck.miss(r),
                    "\(component.name) takes it (intent filter at line \(filter.line)) but has android:exported=\"false\", so no other app, the browser included, can start it; set it to true",
                    component.line))
            return out
        case nil:
            out.append(
                finding(
                    .warn,
                    "\(component.name) has an intent filter but no android:exported: an app targeting Android 12 (API 31) or later must set it (true here), or it does not install",
                    component.line))
        case true?: break
        }
        let isWeb = scheme == "https" || scheme == "http"
        guard isWeb, !viaIntent else {
            out.append(
                finding(.pass, "\(component.name) takes \(action) \(data) (intent filter at line \(filter.line))", filter.line))
            return out
        }
        // A link to an https page: since Android 12 it opens the app only once the filter's host is verified
        // (autoVerify and the site's assetlinks.json); otherwise it opens in the default browser.
        guard filter.autoVerify else {
            out.append(
                finding(
                    AppCheck.miss(r),
                    "\(component.name)'s intent filter takes it but has no android:autoVerify=\"true\": since Android 12 an unverified https link opens in the browser, not the app",
                    filter.line))
            return out
        }
        let host = WebURL(data)?.comparableHost ?? ""
        guard let package = a.package else {
            out.append(
                finding(.warn, "verified link on \(host): assetlinks.json not checked (the package is not known)", filter.line))
            return out
        }
        guard let served = a.assetLinks.first(where: { $0.host == host }) else {
            out.append(
                finding(
                    .warn,
                    "\(component.name) takes it with autoVerify; the assetlinks.json of \(host) was not given (--assetlinks \(host)=FILE), so its verification was not checked",
                    filter.line))
            return out
        }
        guard served.document.packages.contains(package) else {
            out.append(
                finding(
                    AppCheck.miss(r),
                    "the assetlinks.json of \(host) delegates handle_all_urls to \(served.document.packages.isEmpty ? "no app" : served.document.packages.joined(separator: ", ")), not \(package): verification fails and the link opens in the browser",
                    nil, file: served.file))
            return out
        }
        let listed = served.document.fingerprints(for: package)
        if a.certificates.isEmpty {
            out.append(
                finding(
                    .warn,
                    "\(served.file) delegates to \(package); the signing certificate was not checked (give --android-cert-sha256)",
                    filter.line))
        } else if let missing = a.certificates.first(where: { !listed.contains($0) }) {
            out.append(
                finding(
                    AppCheck.miss(r),
                    "the assetlinks.json of \(host) lists \(listed.joined(separator: ", ")) for \(package), not the app's certificate \(missing): verification fails and the link opens in the browser",
                    nil, file: served.file))
        } else {
            out.append(
                finding(
                    .pass,
                    "\(component.name) takes it (autoVerify, line \(filter.line)); \(served.file) delegates to \(package) with its certificate",
                    filter.line))
        }
        return out
    }

    /// Why no filter takes the intent, told by the filter that comes closest: the one sharing the URI's scheme
    /// (then host) that fails on the fewest points.
    static func nearestMiss(action: String, categories: [String], url: String, _ manifest: AndroidManifest) -> String {
        let scheme = url.split(separator: ":").first.map(String.init) ?? ""
        var best: (score: Int, text: String)?
        for c in manifest.components {
            for f in c.filters where f.schemes.contains(scheme) {
                var reasons: [String] = []
                if !f.actions.contains(action) {
                    reasons.append("its actions are \(f.actions.joined(separator: ", ")), not \(action)")
                }
                let missing = categories.filter { !f.categories.contains($0) }
                if !missing.isEmpty {
                    reasons.append("it lacks <category android:name=\"\(missing.joined(separator: "\", \""))\"/>")
                }
                if !c.enabled { reasons.append("\(c.name) is android:enabled=\"false\"") }
                if !f.matchesData(url) {
                    let hosts = f.hosts.map(\.host)
                    let host = WebURL(url)?.comparableHost ?? ""
                    if !hosts.isEmpty
                        && !hosts.contains(where: { h in h == host || (h.hasPrefix("*") && host.hasSuffix(h.dropFirst())) })
                    {
                        reasons.append("its hosts are \(hosts.joined(separator: ", ")), not \(host)")
                    } else {
                        let paths = f.paths.map { "\($0.kind.rawValue)=\"\($0.pattern)\"" }
                        reasons.append("no path rule (\(paths.joined(separator: ", "))) matches \(WebURL(url)?.path ?? url)")
                    }
                }
                let text = "\(c.name)'s intent filter at line \(f.line) comes closest, but " + reasons.joined(separator: "; ")
                if best == nil || reasons.count < best!.score { best = (reasons.count, text) }
            }
        }
        let intent = "no activity's intent filter takes \(action) with BROWSABLE and DEFAULT for \(url)"
        guard let best else {
            return
                "\(intent): no intent filter has the scheme \"\(scheme)\"; add an <intent-filter> with <data android:scheme=\"\(scheme)\" …/>"
        }
        return "\(intent): \(best.text)"
    }
}

import NavigationPolicy
import PlainviewURL

extension AppCheck {
    func checkIOS(_ ios: IOS) -> [AppCheckFinding] {
        let c = ios.configuration
        var out: [AppCheckFinding] = []
        func add(_ v: AppCheckFinding.Verdict, _ subject: String, _ message: String, _ file: String?, _ line: Int?) {
            out.append(AppCheckFinding(platform: "ios", verdict: v, subject: subject, message: message, file: file, line: line))
        }
        for r in returns(on: .ios) {
            guard let url = WebURL(r.url) else {
                add(.fail, AppCheck.subject(r), "not a URL iOS can open", nil, nil)
                continue
            }
            let scheme = url.scheme
            if scheme == "intent" { continue } // Android's; iOS never sees it
            if scheme != "https" && scheme != "http" {
                // A custom scheme: iOS opens the app whose Info.plist lists it (CFBundleURLTypes).
                guard c.infoPlist != nil else {
                    add(.warn, AppCheck.subject(r), "custom scheme \(scheme): not checked (give --info-plist)", nil, nil)
                    continue
                }
                if let listed = c.urlSchemes.first(where: { $0.value.lowercased() == scheme }) {
                    add(.pass, AppCheck.subject(r), "CFBundleURLSchemes lists \(listed.value)", listed.file, listed.line)
                } else {
                    add(
                        AppCheck.miss(r), AppCheck.subject(r),
                        "no CFBundleURLTypes entry lists the scheme \"\(scheme)\", so iOS opens no app for it; add <string>\(scheme)</string> to a CFBundleURLSchemes array"
                            + (c.urlSchemes.isEmpty ? "" : " (listed: \(c.urlSchemes.map(\.value).joined(separator: ", ")))"),
                        c.infoPlist, c.urlTypesLine)
                }
                continue
            }
            out += universalLink(r, url: url, ios)
        }
        out += appBoundDomains(c)
        return out
    }

    /// An https return reaches the app as a universal link: the entitlements claim its host with `applinks:`
    /// and the apple-app-site-association served there lists the app for its path.
    private func universalLink(_ r: AppReturn, url: WebURL, _ ios: IOS) -> [AppCheckFinding] {
        let c = ios.configuration
        let host = url.comparableHost ?? ""
        let subject = AppCheck.subject(r)
        func finding(_ v: AppCheckFinding.Verdict, _ m: String, _ f: String?, _ l: Int?) -> AppCheckFinding {
            AppCheckFinding(platform: "ios", verdict: v, subject: subject, message: m, file: f, line: l)
        }
        if url.scheme == "http" {
            return [
                finding(
                    AppCheck.miss(r), "an http URL is never a universal link (Apple requires https); iOS opens it in Safari", nil,
                    nil)
            ]
        }
        guard c.entitlements != nil else {
            return [finding(.warn, "universal link: not checked (give --entitlements)", nil, nil)]
        }
        let claims = c.associatedDomains.filter { $0.service == "applinks" && $0.claims(host: host) }
        guard let claim = claims.first else {
            return [
                finding(
                    AppCheck.miss(r),
                    "com.apple.developer.associated-domains has no applinks:\(host), so iOS opens \(host) in Safari, never in the app; add <string>applinks:\(host)</string>",
                    c.entitlements, c.associatedDomainsLine)
            ]
        }
        var out: [AppCheckFinding] = []
        if claim.modes.contains("developer") {
            out.append(
                finding(
                    .warn,
                    "\(claim.entry.value): with ?mode=developer only development-signed builds on devices in developer mode use it; an App Store or TestFlight build does not claim \(host)",
                    claim.entry.file, claim.entry.line))
        }
        guard let served = ios.aasa.first(where: { $0.host == host }) else {
            out.append(
                finding(
                    .warn,
                    "\(claim.entry.value) is claimed; the apple-app-site-association of \(host) was not given (--aasa \(host)=FILE), so whether it lists the app for \(url.path) was not checked",
                    claim.entry.file, claim.entry.line))
            return out
        }
        let document = served.document
        guard let appID = ios.appID ?? Self.inferredAppID(document, bundle: c.bundleIdentifier?.value) else {
            // The app ID is not spelled out: judge by every app the file names for this path.
            let covering = document.appIDs.filter { document.verdict(appID: $0, url: url.href) == .match }
            if covering.isEmpty {
                out.append(
                    finding(
                        AppCheck.miss(r),
                        "the apple-app-site-association of \(host) lets no app (it names \(document.appIDs.isEmpty ? "none" : document.appIDs.joined(separator: ", "))) open \(url.path); add a path or component for it",
                        served.file, nil))
            } else {
                out.append(
                    finding(
                        .warn,
                        "\(served.file) lists \(covering.joined(separator: ", ")) for \(url.path); which one this app is was not checked (the entitlements do not spell out application-identifier: give --app-id TEAMID.bundle.id)",
                        claim.entry.file, claim.entry.line))
            }
            return out
        }
        guard document.appIDs.contains(appID) else {
            out.append(
                finding(
                    AppCheck.miss(r),
                    "the apple-app-site-association of \(host) does not name \(appID) (it names \(document.appIDs.isEmpty ? "no app" : document.appIDs.joined(separator: ", "))); add it to applinks.details",
                    served.file, nil))
            return out
        }
        switch document.verdict(appID: appID, url: url.href) {
        case .match:
            out.append(
                finding(
                    .pass, "\(claim.entry.value); \(served.file) lists \(appID) for \(url.path)", claim.entry.file,
                    claim.entry.line))
        case .exclude:
            out.append(
                finding(
                    AppCheck.miss(r),
                    "the apple-app-site-association of \(host) excludes \(url.path) for \(appID), so iOS opens it in Safari",
                    served.file, nil))
        case .noMatch:
            out.append(
                finding(
                    AppCheck.miss(r),
                    "the apple-app-site-association of \(host) lists \(appID) but no path or component of it matches \(url.path); add one",
                    served.file, nil))
        }
        return out
    }

    /// The app ID when the entitlements leave it to build variables but the Info.plist spells out the bundle
    /// identifier: the one app ID of the AASA that ends with `.BUNDLE` (a team ID is 10 characters before it).
    static func inferredAppID(_ document: AppSiteAssociation, bundle: String?) -> String? {
        guard let bundle, !bundle.contains("$(") else { return nil }
        let matching = document.appIDs.filter { $0.hasSuffix("." + bundle) && $0.count == bundle.count + 11 }
        return matching.count == 1 ? matching[0] : nil
    }

    /// `WKAppBoundDomains`: when the key is there, WebKit gives script, user scripts and message handlers only to
    /// those domains, and with `limitsNavigationsToAppBoundDomains` loads nothing else (WebKit's "App-Bound
    /// Domains", webkit.org blog 10882; at most 10 domains are read).
    private func appBoundDomains(_ c: IOSAppConfiguration) -> [AppCheckFinding] {
        guard let bound = c.appBoundDomains else { return [] }
        var out: [AppCheckFinding] = []
        let domains = bound.map { $0.value.lowercased() }
        if bound.count > 10 {
            out.append(
                AppCheckFinding(
                    platform: "ios", verdict: .warn, subject: "WKAppBoundDomains",
                    message: "lists \(bound.count) domains; WebKit reads only the first 10", file: bound[10].file,
                    line: bound[10].line))
        }
        for host in webViewHosts {
            let covered = domains.prefix(10).contains { host == $0 || host.hasSuffix(".\($0)") }
            out.append(
                AppCheckFinding(
                    platform: "ios", verdict: covered ? .pass : .fail, subject: "WKAppBoundDomains \(host)",
                    message: covered
                        ? "the web view's own host is an app-bound domain"
                        : "the web view must load \(host), which is not an app-bound domain: its scripts and message handlers get no bridge, and with limitsNavigationsToAppBoundDomains it does not load; add <string>\(host)</string>",
                    file: c.infoPlist, line: bound.first?.line))
        }
        out.append(
            AppCheckFinding(
                platform: "ios", verdict: .warn, subject: "WKAppBoundDomains",
                message:
                    "3-D Secure pages are on the banks' hosts, which no list of 10 domains holds: with limitsNavigationsToAppBoundDomains they fail to load, and without it their scripts cannot reach the app's message handlers",
                file: c.infoPlist, line: bound.first?.line))
        return out
    }
}

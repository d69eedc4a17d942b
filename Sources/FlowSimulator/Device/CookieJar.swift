// The simulated device's cookie jars.
import Foundation
import PlainviewURL

/// A context's cookies (the web view and the browser each have their own jar).
struct CookieJar: Sendable, Hashable {
    /// Domain → cookie name → value. A dictionary, not a list: a response may set hundreds of thousands of
    /// cookies, and storing or looking one up must not scan the others.
    private var byDomain: [String: [String: String]] = [:]
    /// The cookies set with `Expires` or `Max-Age` (persistent): `domain name`. The others are session cookies,
    /// which an app's process keeps only while it lives.
    private var persistent: Set<String> = []

    /// Stores a `Set-Cookie` value received from `url`.
    mutating func set(_ header: String, from url: String) {
        guard let host = URLTools.host(url) else { return }
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, let eq = first.firstIndex(of: "="), let name = Self.name(of: header) else { return }
        let value = String(first[first.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        var domain = host
        var lasts = false
        for attr in parts.dropFirst() {
            let kv = attr.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, ["expires", "max-age"].contains(kv[0].lowercased()) { lasts = true }
            if kv.count == 2, kv[0].lowercased() == "domain" {
                var d = kv[1].lowercased()
                if d.hasPrefix(".") { d.removeFirst() }
                // A cookie may only be set for the host itself or a parent domain of it.
                if host == d || host.hasSuffix("." + d) { domain = d }
            }
        }
        byDomain[domain, default: [:]][name] = value
        if lasts { persistent.insert("\(domain) \(name)") } else { persistent.remove("\(domain) \(name)") }
    }

    /// The cookie's name in a `Set-Cookie` value (`acs_tx` in `acs_tx=8a; Path=/`); nil when it sets none.
    static func name(of header: String) -> String? {
        guard let first = header.split(separator: ";", omittingEmptySubsequences: false).first,
            let eq = first.firstIndex(of: "=")
        else { return nil }
        let name = first[..<eq].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// The jar after the app's process ended: its persistent cookies only (WKWebView's default data store and
    /// Android's CookieManager write those to disk; session cookies lived in the process).
    func afterProcessDeath() -> CookieJar {
        var out = CookieJar()
        for (domain, cookies) in byDomain {
            for (name, value) in cookies where persistent.contains("\(domain) \(name)") {
                out.byDomain[domain, default: [:]][name] = value
            }
        }
        out.persistent = persistent
        return out
    }

    /// True when a request to `url` carries the cookie `requirement` (`name` or `name=value`).
    func satisfies(_ requirement: String, for url: String) -> Bool {
        guard let host = URLTools.host(url) else { return false }
        let (name, value) = Self.split(requirement)
        // The host and each parent domain: one lookup per label.
        var domain = Substring(host)
        while true {
            if let stored = byDomain[String(domain)]?[name], value == nil || stored == value { return true }
            guard let dot = domain.firstIndex(of: ".") else { return false }
            domain = domain[domain.index(after: dot)...]
        }
    }

    /// The `Cookie` header a request to `url` carries: the cookies of its host and each parent domain, the host's
    /// first; nil when there are none.
    func header(for url: String) -> String? {
        guard let host = URLTools.host(url) else { return nil }
        var pairs: [String] = []
        var seen: Set<String> = []
        var domain = Substring(host)
        while true {
            for (name, value) in (byDomain[String(domain)] ?? [:]).sorted(by: { $0.key < $1.key })
            where seen.insert(name).inserted {
                pairs.append("\(name)=\(value)")
            }
            guard let dot = domain.firstIndex(of: ".") else { break }
            domain = domain[domain.index(after: dot)...]
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    static func split(_ requirement: String) -> (String, String?) {
        guard let eq = requirement.firstIndex(of: "=") else { return (requirement, nil) }
        return (String(requirement[..<eq]), String(requirement[requirement.index(after: eq)...]))
    }
}

// Universal links (iOS): matching a URL against an apple-app-site-association (AASA) document.
//
// Both shapes of `applinks.details[]` are read: the modern one (`appIDs` + `components`, iOS 13+) and the
// legacy one (`appID` + `paths` with `NOT ` exclusions, and the oldest `details: {appID: {paths}}` form).
// Semantics follow what Apple's `swcutil` reports (see Tests/Vectors/conformance/aasa_*.json): the first
// component that matches decides; an `exclude` component that matches blocks the universal link.
import PlainviewSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of matching one URL for one app against an AASA document.
public enum AASAVerdict: String, Sendable, Hashable, CaseIterable {
    /// A component (or legacy path) claims the URL: the app opens it as a universal link.
    case match
    /// An `exclude` component (or a legacy `NOT ` path) matched first: the URL must not open the app.
    case exclude
    /// Nothing for this app matches the URL (or the URL is not an https URL of the document's domain).
    case noMatch = "no_match"
}

/// Why an AASA document could not be read: where (`keyPath`, e.g. `applinks.details[0].components[2]["/"]`)
/// and what was expected.
public struct AppSiteAssociationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON key path of the offending value (`$` for the document itself).
    public var keyPath: String
    /// What is wrong and what was expected.
    public var message: String

    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { "apple-app-site-association \(keyPath): \(message)" }
}

/// A parsed apple-app-site-association document, ready to answer "does app X claim URL Y?".
public struct AppSiteAssociation: Sendable, Hashable {
    /// The host the document is served from. When set, only https URLs of this host (case-insensitive,
    /// trailing dot ignored) can match; when nil, the caller has already checked the host.
    public var domain: String?
    /// Every app named by `applinks.details`, in document order, without duplicates.
    public var appIDs: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for detail in details { for id in detail.appIDs where seen.insert(id).inserted { out.append(id) } }
        return out
    }

    var details: [AASADetail]

    /// Parses an AASA document from its JSON bytes.
    public init(json bytes: some Collection<UInt8>, domain: String? = nil) throws(AppSiteAssociationError) {
        let value: AASAJSON
        do {
            value = try JSONDecoder().decode(AASAJSON.self, from: Data(bytes))
        } catch {
            let location = JSONSyntax.firstError(in: Array(bytes)).map { "at \($0)" } ?? "\(error)"
            throw AppSiteAssociationError(
                keyPath: "$", message: "not valid JSON (expected a JSON object with an \"applinks\" key): \(location)")
        }
        try self.init(document: value, domain: domain)
    }

    /// Parses an AASA document from its JSON text.
    public init(json text: String, domain: String? = nil) throws(AppSiteAssociationError) {
        try self.init(json: Array(text.utf8), domain: domain)
    }

    /// One app claiming legacy AASA `paths` on a domain (the environment file's
    /// `universalLinks: [{host, paths: ["/*", "NOT /x"]}]`).
    public init(appID: String, paths: [String], domain: String? = nil) {
        self.domain = domain
        self.details = [AASADetail(appIDs: [appID], rules: paths.map { AASARule(legacyPath: $0) })]
    }

    init(document: AASAJSON, domain: String?) throws(AppSiteAssociationError) {
        self.domain = domain
        self.details = try AASADocumentReader.details(of: document)
    }

    /// The verdict for one app: the first of its rules that matches decides (`exclude` blocks).
    public func verdict(appID: String, url: String) -> AASAVerdict {
        guard let parts = AASAURLParts(url), hostMatches(parts) else { return .noMatch }
        for detail in details where detail.appIDs.contains(appID) {
            for rule in detail.rules where rule.matches(parts) {
                return rule.exclude ? .exclude : .match
            }
        }
        return .noMatch
    }

    /// The first app (document order) whose verdict for `url` is `.match`, or nil.
    public func app(for url: String) -> String? {
        appIDs.first { verdict(appID: $0, url: url) == .match }
    }

    /// Every app with a verdict other than `.noMatch` for `url` (`.match` or `.exclude`), by app ID.
    public func verdicts(for url: String) -> [String: AASAVerdict] {
        var out: [String: AASAVerdict] = [:]
        for app in appIDs {
            let v = verdict(appID: app, url: url)
            if v != .noMatch { out[app] = v }
        }
        return out
    }

    private func hostMatches(_ parts: AASAURLParts) -> Bool {
        // Universal links are https only; a non-default port never opens an app.
        guard parts.scheme == "https", parts.port == nil || parts.port == "443" || parts.port == "" else { return false }
        guard let domain else { return true }
        return AASAURLParts.normalisedHost(domain) == AASAURLParts.normalisedHost(parts.host)
    }
}

/// One `details` entry: the apps it names and their rules, in order.
struct AASADetail: Sendable, Hashable {
    var appIDs: [String]
    var rules: [AASARule]
}

/// One component (or legacy path), compiled.
struct AASARule: Sendable, Hashable {
    enum Query: Sendable, Hashable {
        /// No `?` key (or a dictionary Apple ignores): any query matches.
        case any
        /// `?` as a string: the whole query string must match.
        case whole(AASAPattern)
        /// `?` as a dictionary: every named item must match (an absent item reads as "").
        case items([String: AASAPattern])
    }

    var path: AASAPattern?
    var query: Query = .any
    var fragment: AASAPattern?
    var exclude = false
    var caseSensitive = true
    var percentEncoded = true
    /// Legacy `paths` compare the path only.
    var legacy = false

    init(path: AASAPattern?, query: Query, fragment: AASAPattern?, exclude: Bool, caseSensitive: Bool, percentEncoded: Bool) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// A legacy `paths` entry: `NOT ` prefix excludes; case-sensitive; query and fragment ignored.
    init(legacyPath: String) {
        var text = Substring(legacyPath)
        if text.hasPrefix("NOT ") {
            exclude = true
            text = text.dropFirst(4)
        }
        legacy = true
        path = AASAPattern(path: String(text), caseSensitive: true, variables: [:])
    }

    func matches(_ url: AASAURLParts) -> Bool {
        if let path {
            let raw = percentEncoded ? String(url.path) : AASAURLParts.percentDecoded(url.path)
            if !path.matches(AASAURLParts.trimmedSlashes(raw)) { return false }
        }
        if legacy { return true }
        switch query {
        case .any: break
        case .whole(let pattern):
            let q = url.query.map { percentEncoded ? String($0) : AASAURLParts.percentDecoded($0) } ?? ""
            if !pattern.matches(q) { return false }
        case .items(let predicates):
            let items = url.queryItems(decoded: !percentEncoded)
            for (name, pattern) in predicates {
                let values = items.filter { caseSensitive ? $0.name == name : $0.name.lowercased() == name.lowercased() }
                if values.isEmpty {
                    if !pattern.matches("") { return false }
                } else if !values.allSatisfy({ pattern.matches($0.value) }) {
                    // swcutil: every occurrence of a repeated name must match.
                    return false
                }
            }
        }
        if let fragment {
            let f = url.fragment.map { percentEncoded ? String($0) : AASAURLParts.percentDecoded($0) } ?? ""
            if !fragment.matches(f) { return false }
        }
        return true
    }
}

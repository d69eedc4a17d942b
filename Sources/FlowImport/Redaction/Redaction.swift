// Redaction of recordings: what counts as a secret (RedactionConfig), what was replaced (RedactionReport).
// The work is done by Redactor (Redaction+Redactor.swift) with the detectors of Redaction+Detectors.swift.
import PlainviewURL
import AppSwitch
import Foundation
import PlainviewConfig

/// What is redacted. The defaults cover the seeds' flows (3-D Secure `PaReq`/`MD`/`creq`, BankID and Swish
/// tokens, session cookies); a file or CLI flags add names, keep names, or add regular expressions.
public struct RedactionConfig: Sendable, Hashable {
    /// Parameter names (query items, form fields, JSON keys, HTML `name`/`id` of inputs and metas, attribute
    /// names) whose values are secrets. A pattern without `*` matches the whole name or one of its words
    /// (`token` matches `access_token`, `csrfToken`, `X-Auth-Token`; `key` matches `api_key` but not `keyword`);
    /// with `*` it is a glob over the whole name. Case-insensitive.
    public var names: [String]
    /// Header names whose whole value is a credential (Cookie and Set-Cookie are handled per cookie).
    public var headers: [String]
    /// Names never redacted by name, even when they match `names` (cards, e-mails … in them still are).
    public var keep: [String]
    public var cookies: Bool
    public var cards: Bool
    public var personalNumbers: Bool
    public var emails: Bool
    /// Extra regular expressions (ICU syntax): the first capture group, or the whole match, is redacted.
    public var patterns: [String]
    /// Exact values never redacted (e.g. the query values of the policy's own URLs, so paymentUrl still
    /// matches in a replay). Not read from files: set by the caller.
    public var keepValues: Set<String> = []
    /// A secret is also replaced wherever else it stands as a whole token (bodies, other URLs, in percent- and
    /// HTML-encoded forms) when it has at least this many characters; shorter values (`code=1`, `bearer`) are
    /// replaced only where they were found, never inside other words.
    public var minimumGlobalLength: Int

    public init(
        names: [String] = RedactionConfig.defaultNames, headers: [String] = RedactionConfig.defaultHeaders,
        keep: [String] = [], cookies: Bool = true, cards: Bool = true, personalNumbers: Bool = true,
        emails: Bool = true, patterns: [String] = [], minimumGlobalLength: Int = 10
    ) {
        self.names = names
        self.headers = headers
        self.keep = keep
        self.cookies = cookies
        self.cards = cards
        self.personalNumbers = personalNumbers
        self.emails = emails
        self.patterns = patterns
        self.minimumGlobalLength = minimumGlobalLength
    }

    public static let `default` = RedactionConfig()

    /// Adds the query values of every http(s) URL in `text` (a policy file) to `keepValues`.
    public mutating func keepQueryValues(ofURLsIn text: String) {
        for m in RedactionConfig.urlPattern.matches(in: text) {
            guard let url = m.group(0, in: text as NSString), let q = url.firstIndex(of: "?") else { continue }
            for item in HARForm.decode(String(url[url.index(after: q)...]).components(separatedBy: "#")[0])
            where !item.value.isEmpty {
                keepValues.insert(item.value)
                keepValues.insert(PercentEncoding.encode(item.value, keeping: PercentEncoding.isUnreserved))
            }
        }
    }

    static let urlPattern = RegexBox(#"https?://[^\s"'<>]+"#)

    public static let defaultNames: [String] =
        [
            "token", "*token*", "jwt", "bearer", "session", "*session*", "*sessid*", "sid", "auth", "authorization",
            "authcode", "*authtoken*", "*authkey*",
            "key", "apikey", "*apikey*", "secret", "*secret*", "password", "passwd", "*passw*", "pwd", "pin", "otp",
            "code", "nonce", "state", "ticket", "signature", "sig", "hmac", "csrf", "*csrf*", "xsrf", "*xsrf*",
            "assertion", "samlresponse", "samlrequest",
            // 3-D Secure 1 and 2 (Swedbank Pay's plain web view guide: the auto-posted ACS forms)
            "pareq", "pares", "md", "creq", "cres", "threedssessiondata", "threedsmethoddata",
            // AWS presigned URLs: X-Amz-Credential (X-Amz-Signature and X-Amz-Security-Token match above)
            "credential",
            // cards (Swedish kortnummer), and their security codes (Detectors.cardCodeNames)
            "pan", "cardnumber", "card_number", "kortnummer", "expiry", "expirydate",
            // Nordic identity (BankID, Swish)
            "personalnumber", "personnummer", "ssn", "nationalid", "autostarttoken", "orderref", "qrstarttoken",
            "qrstartsecret",
        ] + Detectors.cardCodeNames

    public static let defaultHeaders: [String] = [
        "Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Access-Token",
        "X-CSRF-Token", "X-XSRF-Token", "X-Amz-Security-Token", "X-Session-Id", "X-Goog-AuthUser",
    ]

    /// Reads a YAML or JSON file. Its lists ADD to the defaults unless `replaceDefaults: true`.
    /// Keys: names, headers, keep, patterns, cookies, cards, personalNumbers, emails, minimumGlobalLength,
    /// replaceDefaults. Unknown keys and wrong types are errors naming the file and key.
    public static func load(contentsOf url: URL, name: String? = nil) throws(ConfigError) -> RedactionConfig {
        try parse(ConfigNode.readText(path: url.path, displayName: name ?? url.path), file: name ?? url.path)
    }

    static let fileKeys: Set<String> = [
        "names", "headers", "keep", "patterns", "cookies", "cards", "personalNumbers", "emails",
        "minimumGlobalLength", "replaceDefaults",
    ]

    public static func parse(_ text: String, file: String) throws(ConfigError) -> RedactionConfig {
        guard let root = try ConfigNode.parseOptional(text, file: file), !root.isNull else { return .default }
        let map = try root.fields(fileKeys.sorted())
        func list(_ key: String) throws(ConfigError) -> [String]? {
            try map.value(key)?.textList()
        }
        func flag(_ key: String) throws(ConfigError) -> Bool? {
            try map.value(key)?.bool()
        }
        let replace = try flag("replaceDefaults") ?? false
        var config = replace ? RedactionConfig(names: [], headers: []) : RedactionConfig()
        config.names += try list("names") ?? []
        config.headers += try list("headers") ?? []
        config.keep += try list("keep") ?? []
        for item in try map.value("patterns")?.items() ?? [] {
            let p = try item.text()
            guard (try? NSRegularExpression(pattern: p)) != nil else { throw item.error("not a valid regular expression: \(p)") }
            config.patterns.append(p)
        }
        if let b = try flag("cookies") { config.cookies = b }
        if let b = try flag("cards") { config.cards = b }
        if let b = try flag("personalNumbers") { config.personalNumbers = b }
        if let b = try flag("emails") { config.emails = b }
        if let v = map.value("minimumGlobalLength") {
            guard let n = try? v.int(), n >= 1 else {
                throw v.error("expected a whole number ≥ 1")
            }
            config.minimumGlobalLength = n
        }
        return config
    }
}

/// What kind of secret a placeholder stands for.
public enum RedactionKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case cookie
    /// Authorization and other credential headers.
    case credential
    /// A value found by its name: query item, form field, JSON key, HTML input/meta/attribute.
    case token
    case card
    case personalNumber = "personal-number"
    /// Swedish, Finnish, Norwegian and Danish company numbers in their written forms.
    case organisationNumber = "organisation-number"
    case email
    /// A JSON Web Token anywhere (header.payload.signature, base64url).
    case jwt
    /// A configured regular expression.
    case pattern

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    var placeholderStem: String {
        switch self {
        case .cookie: return "COOKIE"
        case .credential: return "CREDENTIAL"
        case .token: return "TOKEN"
        case .card: return "CARD"
        case .personalNumber: return "PNR"
        case .organisationNumber: return "ORGNR"
        case .jwt: return "JWT"
        case .email: return "EMAIL"
        case .pattern: return "MATCH"
        }
    }
}

/// What was redacted, where. Never holds a secret, only kinds, places, counts and placeholders.
public struct RedactionReport: Sendable, Hashable, CustomStringConvertible {
    public struct Item: Sendable, Hashable {
        public var kind: RedactionKind
        /// Where: `log.entries[3].request.url`, `log.entries[3].response.content`, a file name …
        public var location: String
        /// The field name when found by name (`token`, `Set-Cookie: SESSION`), else empty.
        public var name: String
        public var placeholder: String
        public var count: Int
    }

    /// The places, a few bytes each (a recording of 20,000 pages has over 100,000 of them): see RedactionPlaces.
    private var places = RedactionPlaces()
    public init() {}

    /// Every place, in the order first recorded.
    public var items: [Item] { places.records.indices.map(item) }

    private func item(_ i: Int) -> Item {
        let r = places.records[i]
        return Item(
            kind: r.kind, location: places.location(r), name: places.strings[Int(r.name)],
            placeholder: places.placeholder(r), count: Int(r.count))
    }

    /// Occurrences replaced, per kind.
    public var counts: [RedactionKind: Int] {
        places.records.reduce(into: [:]) { $0[$1.kind, default: 0] += Int($1.count) }
    }
    public var total: Int { places.records.reduce(0) { $0 + Int($1.count) } }
    /// Distinct secrets replaced.
    public var distinctSecrets: Int { Set(places.records.map(places.placeholderCode)).count }

    /// How many places are recorded.
    var placeCount: Int { places.records.count }

    mutating func record(_ kind: RedactionKind, at location: String, name: String, placeholder: String, count: Int = 1) {
        places.record(kind, at: location, name: name, placeholder: placeholder, count: count)
    }

    /// `redacted 12 values (5 distinct): cookie 4, token 6, email 2` and one line per place.
    public var description: String { summary(places: .max) }

    /// The per-kind line and at most `places` lines of places (then how many more there are).
    public func summary(places: Int) -> String {
        if self.places.records.isEmpty { return "redacted nothing" }
        let perKind = counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        var lines = ["redacted \(total) value(s), \(distinctSecrets) distinct: \(perKind)"]
        let all = self.places.records.count
        if all > places { lines.append("  (the first \(places) of \(all) places)") }
        for item in (0..<min(places, all)).map(item) {
            let what = item.name.isEmpty ? item.kind.rawValue : "\(item.kind.rawValue) \(item.name)"
            lines.append("  \(item.location): \(what) → \(item.placeholder)\(item.count > 1 ? " ×\(item.count)" : "")")
        }
        return lines.joined(separator: "\n")
    }
}

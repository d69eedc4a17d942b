/// What an iOS app's `Info.plist` and entitlements say about the URLs that reach it: its custom schemes, the
/// domains it claims for universal links, and the web view's app-bound domains.
public struct IOSAppConfiguration: Sendable, Hashable {
    /// A value with the file and line it was read from.
    public struct Located: Sendable, Hashable {
        public var value: String
        public var file: String
        public var line: Int
    }

    /// One `com.apple.developer.associated-domains` entry: `applinks:shop.example.com?mode=developer`.
    public struct AssociatedDomain: Sendable, Hashable {
        public var service: String
        public var host: String
        /// `developer` or `managed` (or both), from `?mode=`.
        public var modes: [String]
        public var entry: Located

        /// Whether the entry claims `host` (lower case): exactly, or, for `*.example.com`, any subdomain of
        /// example.com (not example.com itself).
        public func claims(host other: String) -> Bool {
            let mine = host.lowercased()
            if mine.hasPrefix("*.") { return other.hasSuffix(String(mine.dropFirst(1))) && other.count > mine.count - 1 }
            return other == mine
        }
    }

    public var infoPlist: String?
    public var entitlements: String?
    /// `CFBundleIdentifier` as written (often `$(PRODUCT_BUNDLE_IDENTIFIER)`).
    public var bundleIdentifier: Located?
    /// Every `CFBundleURLSchemes` entry of every `CFBundleURLTypes` item.
    public var urlSchemes: [Located] = []
    /// Where `CFBundleURLTypes` is (or the plist's top dict, when it is missing): where a scheme is added.
    public var urlTypesLine: Int?
    /// `LSApplicationQueriesSchemes`: the schemes `canOpenURL` may ask about (nil: the key is absent).
    public var queriedSchemes: [Located]?
    /// `WKAppBoundDomains` (nil: the key is absent).
    public var appBoundDomains: [Located]?
    /// `NSCrossWebsiteTrackingUsageDescription` is declared: Settings offers the user "Allow Cross-Website
    /// Tracking" for the app, which lets its WKWebView keep third-party cookies.
    public var asksForCrossWebsiteTracking = false
    public var associatedDomains: [AssociatedDomain] = []
    /// Where `com.apple.developer.associated-domains` is (or the entitlements' top dict).
    public var associatedDomainsLine: Int?
    /// `application-identifier` or `com.apple.developer.team-identifier` + bundle id, when written out.
    public var applicationIdentifier: Located?
    public var teamIdentifier: Located?

    public init() {}

    /// Reads the Info.plist and entitlements given (either may be nil).
    public static func read(
        infoPlist: (file: String, bytes: [UInt8])?, entitlements: (file: String, bytes: [UInt8])?
    ) throws(AppConfigurationError) -> IOSAppConfiguration {
        var out = IOSAppConfiguration()
        if let infoPlist { try out.readInfoPlist(infoPlist.bytes, file: infoPlist.file) }
        if let entitlements { try out.readEntitlements(entitlements.bytes, file: entitlements.file) }
        return out
    }

    private mutating func readInfoPlist(_ bytes: [UInt8], file: String) throws(AppConfigurationError) {
        infoPlist = file
        let plist = try PropertyList.read(bytes, file: file)
        guard case .dict = plist.value else {
            throw AppConfigurationError(file: file, line: plist.line, message: "expected a <dict> at the top of the Info.plist")
        }
        if let id = plist["CFBundleIdentifier"] {
            bundleIdentifier = Located(value: try Self.string(id, "CFBundleIdentifier", file), file: file, line: id.line)
        }
        urlTypesLine = plist.line
        if let types = plist["CFBundleURLTypes"] {
            urlTypesLine = types.line
            for (i, type) in try Self.array(types, "CFBundleURLTypes", file).enumerated() {
                guard case .dict = type.value else {
                    throw AppConfigurationError(file: file, line: type.line, message: "CFBundleURLTypes[\(i)]: expected a dict")
                }
                guard let schemes = type["CFBundleURLSchemes"] else { continue }
                for s in try Self.array(schemes, "CFBundleURLTypes[\(i)].CFBundleURLSchemes", file) {
                    urlSchemes.append(
                        Located(
                            value: try Self.string(s, "CFBundleURLTypes[\(i)].CFBundleURLSchemes", file), file: file, line: s.line
                        ))
                }
            }
        }
        if let q = plist["LSApplicationQueriesSchemes"] {
            queriedSchemes = try Self.array(q, "LSApplicationQueriesSchemes", file).map { (s) throws(AppConfigurationError) in
                Located(value: try Self.string(s, "LSApplicationQueriesSchemes", file), file: file, line: s.line)
            }
        }
        if let t = plist["NSCrossWebsiteTrackingUsageDescription"] {
            _ = try Self.string(t, "NSCrossWebsiteTrackingUsageDescription", file)
            asksForCrossWebsiteTracking = true
        }
        if let d = plist["WKAppBoundDomains"] {
            appBoundDomains = try Self.array(d, "WKAppBoundDomains", file).map { (s) throws(AppConfigurationError) in
                Located(value: try Self.string(s, "WKAppBoundDomains", file), file: file, line: s.line)
            }
        }
    }

    private mutating func readEntitlements(_ bytes: [UInt8], file: String) throws(AppConfigurationError) {
        entitlements = file
        let plist = try PropertyList.read(bytes, file: file)
        guard case .dict = plist.value else {
            throw AppConfigurationError(file: file, line: plist.line, message: "expected a <dict> at the top of the entitlements")
        }
        let key = "com.apple.developer.associated-domains"
        associatedDomainsLine = plist.line
        if let domains = plist[key] {
            associatedDomainsLine = domains.line
            for d in try Self.array(domains, key, file) {
                let text = try Self.string(d, key, file)
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                    throw AppConfigurationError(
                        file: file, line: d.line,
                        message: "\(key): \"\(text)\": expected SERVICE:DOMAIN (applinks:shop.example.com)")
                }
                var rest = text[text.index(after: colon)...]
                var modes: [String] = []
                if let q = rest.firstIndex(of: "?") {
                    for part in rest[rest.index(after: q)...].split(separator: "&") where part.hasPrefix("mode=") {
                        modes += part.dropFirst(5).split(separator: "+").map(String.init)
                    }
                    rest = rest[..<q]
                }
                associatedDomains.append(
                    AssociatedDomain(
                        service: String(text[..<colon]), host: String(rest).lowercased(), modes: modes,
                        entry: Located(value: text, file: file, line: d.line)))
            }
        }
        if let id = plist["application-identifier"] {
            applicationIdentifier = Located(value: try Self.string(id, "application-identifier", file), file: file, line: id.line)
        }
        if let team = plist["com.apple.developer.team-identifier"] {
            teamIdentifier = Located(
                value: try Self.string(team, "com.apple.developer.team-identifier", file), file: file, line: team.line)
        }
    }

    private static func array(_ v: PropertyList, _ key: String, _ file: String) throws(AppConfigurationError) -> [PropertyList] {
        guard let a = v.array else {
            throw AppConfigurationError(file: file, line: v.line, message: "\(key): expected an array, found a \(v.value.kind)")
        }
        return a
    }

    private static func string(_ v: PropertyList, _ key: String, _ file: String) throws(AppConfigurationError) -> String {
        guard let s = v.string else {
            throw AppConfigurationError(file: file, line: v.line, message: "\(key): expected a string, found a \(v.value.kind)")
        }
        return s
    }

    /// The app ID an apple-app-site-association must name (TEAMID.bundle.id), from the entitlements, if they
    /// spell it out without build variables.
    public var appID: String? {
        if let id = applicationIdentifier?.value, !id.contains("$(") { return id }
        if let team = teamIdentifier?.value, let bundle = bundleIdentifier?.value, !team.contains("$("),
            !bundle.contains("$(")
        {
            return "\(team).\(bundle)"
        }
        return nil
    }
}

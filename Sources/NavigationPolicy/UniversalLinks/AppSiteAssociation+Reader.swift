// Reading an AASA document (JSON) into compiled rules, with key-path error messages.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value as decoded by JSONDecoder (key order is not needed: arrays carry every ordered thing).
indirect enum AASAJSON: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AASAJSON])
    case object([String: AASAJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let a = try? c.decode([AASAJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: AASAJSON].self))
        }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The keys a component (or a `defaults` dictionary) may carry; unknown keys are ignored like swcutil does.
private struct AASAComponentKeys {
    var path: String?
    var query: AASAJSON?
    var fragment: String?
    var exclude: Bool?
    var caseSensitive: Bool?
    var percentEncoded: Bool?

    /// Fills the keys this one lacks from `fallback` (component → detail defaults → applinks defaults).
    func falling(back fallback: AASAComponentKeys) -> AASAComponentKeys {
        AASAComponentKeys(
            path: path ?? fallback.path, query: query ?? fallback.query, fragment: fragment ?? fallback.fragment,
            exclude: exclude ?? fallback.exclude, caseSensitive: caseSensitive ?? fallback.caseSensitive,
            percentEncoded: percentEncoded ?? fallback.percentEncoded)
    }
}

enum AASADocumentReader {
    typealias Failure = AppSiteAssociationError

    static func details(of document: AASAJSON) throws(Failure) -> [AASADetail] {
        guard case .object(let root) = document else {
            throw Failure(keyPath: "$", message: "expected a JSON object, found \(document.kind)")
        }
        guard let applinksValue = root["applinks"] else { return [] } // e.g. webcredentials only
        guard case .object(let applinks) = applinksValue else {
            throw Failure(keyPath: "applinks", message: "expected an object, found \(applinksValue.kind)")
        }
        let variables = try substitutionVariables(applinks["substitutionVariables"])
        let topDefaults = try keys(applinks["defaults"], at: "applinks.defaults")
        guard let detailsValue = applinks["details"] else { return [] }
        var budget = maximumExpandedSize
        switch detailsValue {
        case .array(let entries):
            var out: [AASADetail] = []
            for (i, entry) in entries.enumerated() {
                out.append(
                    try detail(
                        entry, at: "applinks.details[\(i)]", appIDOverride: nil,
                        topDefaults: topDefaults, variables: variables, budget: &budget))
            }
            return out
        case .object(let byApp):
            // The oldest form, {"TEAM.bundle": {"paths": [...]}}: JSON key order is undefined, so sorted.
            var out: [AASADetail] = []
            for appID in byApp.keys.sorted() {
                guard let entry = byApp[appID] else { continue }
                out.append(
                    try detail(
                        entry, at: "applinks.details[\(quoted(appID))]", appIDOverride: appID,
                        topDefaults: topDefaults, variables: variables, budget: &budget))
            }
            return out
        default:
            throw Failure(keyPath: "applinks.details", message: "expected an array of objects, found \(detailsValue.kind)")
        }
    }

    private static func detail(
        _ value: AASAJSON, at path: String, appIDOverride: String?,
        topDefaults: AASAComponentKeys, variables: [String: [String]], budget: inout Int
    ) throws(Failure) -> AASADetail {
        guard case .object(let entry) = value else {
            throw Failure(keyPath: path, message: "expected an object, found \(value.kind)")
        }
        var appIDs: [String] = []
        if let id = appIDOverride {
            appIDs = [id]
        } else if let list = entry["appIDs"] {
            // `appIDs`, even empty, takes precedence over `appID` (swcutil).
            appIDs = try strings(list, at: "\(path).appIDs")
        } else if let single = entry["appID"] {
            guard case .string(let s) = single else {
                throw Failure(keyPath: "\(path).appID", message: "expected a string (TEAMID.bundle.id), found \(single.kind)")
            }
            appIDs = [s]
        }
        if let componentsValue = entry["components"] {
            guard case .array(let components) = componentsValue else {
                throw Failure(
                    keyPath: "\(path).components", message: "expected an array of objects, found \(componentsValue.kind)")
            }
            let detailDefaults = try keys(entry["defaults"], at: "\(path).defaults").falling(back: topDefaults)
            var rules: [AASARule] = []
            for (i, component) in components.enumerated() {
                let at = "\(path).components[\(i)]"
                guard component.isObject else {
                    throw Failure(keyPath: at, message: "expected an object, found \(component.kind)")
                }
                let resolved = try keys(component, at: at).falling(back: detailDefaults)
                rules.append(try rule(resolved, at: at, variables: variables, budget: &budget))
            }
            return AASADetail(appIDs: appIDs, rules: rules)
        }
        if let pathsValue = entry["paths"] {
            let paths = try strings(pathsValue, at: "\(path).paths")
            for (i, p) in paths.enumerated() {
                try charge(p, at: "\(path).paths[\(i)]", variables: [:], budget: &budget)
            }
            return AASADetail(appIDs: appIDs, rules: paths.map { AASARule(legacyPath: $0) })
        }
        return AASADetail(appIDs: appIDs, rules: [])
    }

    /// How many pattern characters one document may compile to once `$(…)` is expanded. A substitution
    /// variable with many values used many times grows quadratically (a 17 kB document reached 700 MB
    /// before this limit); real documents stay far below it (`$(lang)_$(region)` is about 1,300).
    static let maximumExpandedSize = 200_000

    /// Counts `pattern`'s expanded size against `budget`; throws when the document would exceed it.
    private static func charge(_ pattern: String, at path: String, variables: [String: [String]], budget: inout Int)
        throws(Failure)
    {
        let size = AASAPattern.expandedSize(pattern, variables: variables, limit: max(budget, 0))
        budget -= size
        if budget < 0 {
            throw Failure(
                keyPath: path,
                message:
                    "pattern expands to \(size) or more characters through $(…) substitutions, which takes the document past \(maximumExpandedSize); use fewer substitutions or fewer variable values"
            )
        }
    }

    private static func rule(_ k: AASAComponentKeys, at path: String, variables: [String: [String]], budget: inout Int)
        throws(Failure) -> AASARule
    {
        if let p = k.path { try charge(p, at: "\(path)[\"/\"]", variables: variables, budget: &budget) }
        if let f = k.fragment { try charge(f, at: "\(path)[\"#\"]", variables: variables, budget: &budget) }
        switch k.query {
        case .string(let q)?: try charge(q, at: "\(path)[\"?\"]", variables: variables, budget: &budget)
        case .object(let items)?:
            for (name, value) in items {
                if case .string(let q) = value {
                    try charge(q, at: "\(path)[\"?\"][\(quoted(name))]", variables: variables, budget: &budget)
                }
            }
        default: break
        }
        let caseSensitive = k.caseSensitive ?? true
        let percentEncoded = k.percentEncoded ?? true
        var query = AASARule.Query.any
        switch k.query {
        case nil: break
        case .string(let s)?:
            query = .whole(AASAPattern(s, caseSensitive: caseSensitive, variables: variables))
        case .object(let items)?:
            var predicates: [String: AASAPattern] = [:]
            var ignored = false
            for (name, value) in items {
                guard case .string(let s) = value else {
                    // swcutil ignores the whole `?` dictionary when any predicate is not a string.
                    ignored = true
                    break
                }
                predicates[caseSensitive ? name : name.lowercased()] = AASAPattern(
                    s, caseSensitive: caseSensitive, variables: variables)
            }
            query = ignored ? .any : .items(predicates)
        case let other?:
            throw Failure(
                keyPath: "\(path)[\"?\"]", message: "expected a string or an object of query-item patterns, found \(other.kind)")
        }
        return AASARule(
            path: k.path.map { AASAPattern(path: $0, caseSensitive: caseSensitive, variables: variables) },
            query: query,
            fragment: k.fragment.map { AASAPattern($0, caseSensitive: caseSensitive, variables: variables) },
            exclude: k.exclude ?? false, caseSensitive: caseSensitive, percentEncoded: percentEncoded)
    }

    private static func keys(_ value: AASAJSON?, at path: String) throws(Failure) -> AASAComponentKeys {
        guard let value else { return AASAComponentKeys() }
        guard case .object(let o) = value else {
            throw Failure(keyPath: path, message: "expected an object, found \(value.kind)")
        }
        var k = AASAComponentKeys()
        k.path = try optionalString(o["/"], at: "\(path)[\"/\"]", what: "a path pattern string")
        k.fragment = try optionalString(o["#"], at: "\(path)[\"#\"]", what: "a fragment pattern string")
        k.query = o["?"]
        if case .null? = k.query { k.query = nil }
        k.exclude = try optionalBool(o["exclude"], at: "\(path).exclude")
        k.caseSensitive = try optionalBool(o["caseSensitive"], at: "\(path).caseSensitive")
        k.percentEncoded = try optionalBool(o["percentEncoded"], at: "\(path).percentEncoded")
        return k
    }

    private static func substitutionVariables(_ value: AASAJSON?) throws(Failure) -> [String: [String]] {
        guard let value else { return [:] }
        guard case .object(let o) = value else {
            throw Failure(
                keyPath: "applinks.substitutionVariables", message: "expected an object of string arrays, found \(value.kind)")
        }
        var out: [String: [String]] = [:]
        for (name, list) in o {
            out[name] = try strings(list, at: "applinks.substitutionVariables[\(quoted(name))]")
        }
        return out
    }

    private static func strings(_ value: AASAJSON, at path: String) throws(Failure) -> [String] {
        guard case .array(let items) = value else {
            throw Failure(keyPath: path, message: "expected an array of strings, found \(value.kind)")
        }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else {
                throw Failure(keyPath: "\(path)[\(i)]", message: "expected a string, found \(item.kind)")
            }
            out.append(s)
        }
        return out
    }

    private static func optionalString(_ value: AASAJSON?, at path: String, what: String) throws(Failure) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw Failure(keyPath: path, message: "expected \(what), found \(other.kind)")
        }
    }

    private static func optionalBool(_ value: AASAJSON?, at path: String) throws(Failure) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw Failure(keyPath: path, message: "expected true or false, found \(other.kind)")
        }
    }

    private static func quoted(_ s: String) -> String { "\"\(s)\"" }
}

extension AASAJSON {
    var isObject: Bool { if case .object = self { return true } else { return false } }
}

// `Intent.toUri(URI_INTENT_SCHEME)` and `toUri(URI_ANDROID_APP_SCHEME)`, in Android's key order:
// scheme, action, category, type, identifier, launchFlags, package, component, sourceBounds, extras,
// then `SEL;` and the selector's keys, then `end`. Categories and extras come out in the order of
// Android's ArraySet/ArrayMap: ascending Java `String.hashCode`.
import PlainviewURL

extension AndroidIntent {
    /// The `intent:` URI of this intent (Android's `toUri(Intent.URI_INTENT_SCHEME)`).
    /// As on Android, data without a scheme is written as-is, without the `intent:` prefix.
    public func toURI() -> String {
        var uri = ""
        var scheme: String?
        if let data {
            var rest = Substring(data)
            if let colon = data.unicodeScalars.firstIndex(of: ":"), colon != data.startIndex,
                data[..<colon].unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
                })
            {
                scheme = String(data[..<colon])
                uri += "intent:"
                rest = data[data.unicodeScalars.index(after: colon)...]
            }
            uri += rest
        } else {
            uri += "intent:"
        }
        // Android writes nothing for an empty fragment, so a bare VIEW intent comes out as `intent:` (which
        // parses back with data `intent:`) and data holding `#Intent;` would be read as the intent part.
        // `#Intent;end` in those cases parses back to the same intent on Android and here.
        appendFragment(
            to: &uri, scheme: scheme, defaultAction: Self.actionView, defaultPackage: nil,
            evenIfEmpty: uri == "intent:" || uri.contains("#"))
        return uri
    }

    /// The `android-app://package/scheme/authority/path` URI (Android's `toUri(URI_ANDROID_APP_SCHEME)`),
    /// or nil when the intent names no package.
    public func toAndroidAppURI() -> String? {
        guard let package else { return nil }
        var uri = "android-app://" + Self.uriEncode(package)
        var scheme: String?
        if let data, let parts = AndroidDataParts(data) {
            scheme = parts.scheme
            uri += "/" + Self.uriEncode(parts.scheme)
            if let authority = parts.authority {
                uri += "/" + authority + parts.path
                if let q = parts.query { uri += "?" + q }
                if let f = parts.fragment { uri += "#" + f }
            }
        }
        appendFragment(
            to: &uri, scheme: nil, defaultAction: scheme == nil ? Self.actionMain : Self.actionView,
            defaultPackage: package)
        return uri
    }

    private func appendFragment(
        to uri: inout String, scheme: String?, defaultAction: String?, defaultPackage: String?, evenIfEmpty: Bool = false
    ) {
        var fragment = ""
        appendItems(to: &fragment, scheme: scheme, defaultAction: defaultAction, defaultPackage: defaultPackage)
        if let sel = selector?.intent {
            fragment += "SEL;"
            // Android's `Uri.getScheme()`: the text before the first `:`, even when empty (`scheme=;`).
            let selectorScheme = sel.data.flatMap { d in d.unicodeScalars.firstIndex(of: ":").map { String(d[..<$0]) } }
            sel.appendItems(
                to: &fragment, scheme: selectorScheme,
                defaultAction: nil, defaultPackage: nil)
        }
        if !fragment.isEmpty || evenIfEmpty { uri += "#Intent;" + fragment + "end" }
    }

    private func appendItems(to out: inout String, scheme: String?, defaultAction: String?, defaultPackage: String?) {
        if let scheme { out += "scheme=\(Self.uriEncode(scheme));" }
        if let action, action != defaultAction { out += "action=\(Self.uriEncode(action));" }
        for c in Self.javaHashOrder(categories) { out += "category=\(Self.uriEncode(c));" }
        if let type { out += "type=\(Self.uriEncode(type, allowing: "/"));" }
        if let identifier { out += "identifier=\(Self.uriEncode(identifier, allowing: "/"));" }
        if flags != 0 {
            // Android writes `Integer.toHexString`, e.g. 0x80000000, which its own `Integer.decode` rejects;
            // a negative Int32 is written `-0x…` instead so the URI parses back (on Android too).
            let bits = Int32(truncatingIfNeeded: flags)
            out += bits < 0 ? "launchFlags=-0x\(String(-Int64(bits), radix: 16));" : "launchFlags=0x\(String(bits, radix: 16));"
        }
        if let package, package != defaultPackage { out += "package=\(Self.uriEncode(package));" }
        if let component {
            let short = AndroidComponentName(description: component)?.shortForm ?? component
            out += "component=\(Self.uriEncode(short, allowing: "/"));"
        }
        if let sourceBounds { out += "sourceBounds=\(Self.uriEncode(sourceBounds));" }
        for key in Self.javaHashOrder(Array(extras.keys)) {
            guard let value = extras[key] else { continue }
            let (kind, text) = value.uriForm
            out += "\(kind).\(Self.uriEncode(key))=\(Self.uriEncode(text));"
        }
    }

    /// Android's `Uri.encode`: everything but `A-Z a-z 0-9 _ - ! . ~ ' ( ) *` (and `allowing`) as UTF-8 `%XX`.
    static func uriEncode(_ s: String, allowing: String = "") -> String {
        let allowed = Set("_-!.~'()*".utf8).union(allowing.utf8)
        return PercentEncoding.encode(
            s, keeping: { (b: UInt8) -> Bool in PercentEncoding.isASCIIAlphanumeric(b) || allowed.contains(b) })
    }

    /// Java's `String.hashCode` (UTF-16, wrapping Int32), ArrayMap's key order.
    static func javaHashCode(_ s: String) -> Int32 {
        var h: Int32 = 0
        for unit in s.utf16 { h = h &* 31 &+ Int32(unit) }
        return h
    }

    static func javaHashOrder(_ keys: [String]) -> [String] {
        keys.sorted { a, b in
            let ha = javaHashCode(a), hb = javaHashCode(b)
            return ha != hb ? ha < hb : a < b
        }
    }
}

extension IntentExtra {
    /// The type letter and Java's `toString()` of the value.
    var uriForm: (Character, String) {
        switch self {
        case .string(let s): ("S", s)
        case .bool(let b): ("B", b ? "true" : "false")
        case .byte(let v): ("b", String(v))
        case .char(let c): ("c", c)
        case .double(let v):
            ("d", IntentExtra.javaString(v.description, isNaN: v.isNaN, isInfinite: v.isInfinite, negative: v < 0))
        case .float(let v):
            ("f", IntentExtra.javaString(v.description, isNaN: v.isNaN, isInfinite: v.isInfinite, negative: v < 0))
        case .int(let v): ("i", String(v))
        case .long(let v): ("l", String(v))
        case .short(let v): ("s", String(v))
        }
    }

    /// Java's `Double.toString`/`Float.toString` from Swift's shortest-digits description:
    /// plain notation for 1e-3 ≤ |x| < 1e7 (`10.4`, `1000.0`), else `d.dddE±n` (`1.0E7`, `1.0E-4`).
    static func javaString(_ swift: String, isNaN: Bool, isInfinite: Bool, negative: Bool) -> String {
        if isNaN { return "NaN" }
        if isInfinite { return negative ? "-Infinity" : "Infinity" }
        var text = Substring(swift)
        let sign = text.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        let intPart = text.prefix { $0 != "." }
        let fracPart = text.drop { $0 != "." }.dropFirst()
        var digits = Array(intPart + fracPart)
        var point = intPart.count + exponent
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        if digits.isEmpty { return sign + "0.0" }
        let sci = point - 1
        if (-3...6).contains(sci) {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + String(digits) }
            let whole =
                digits.count >= point
                ? String(digits[..<point]) : String(digits) + String(repeating: "0", count: point - digits.count)
            let frac = digits.count > point ? String(digits[point...]) : "0"
            return sign + whole + "." + frac
        }
        let rest = digits.count > 1 ? String(digits[1...]) : "0"
        return sign + String(digits[0]) + "." + rest + "E" + String(sci)
    }
}

/// Android `Uri` parts of a data URI: scheme before the first `:`; `//authority` only when the
/// scheme-specific part starts with `//`; path, `?query`, `#fragment` as written (still encoded).
struct AndroidDataParts {
    var scheme: String
    var authority: String?
    var path: Substring = ""
    var query: Substring?
    var fragment: Substring?

    init?(_ data: String) {
        guard let colon = data.unicodeScalars.firstIndex(of: ":"), colon != data.startIndex else { return nil }
        scheme = String(data[..<colon])
        var rest = data[data.unicodeScalars.index(after: colon)...]
        if let hash = rest.unicodeScalars.firstIndex(of: "#") {
            fragment = rest[rest.unicodeScalars.index(after: hash)...]
            rest = rest[..<hash]
        }
        guard rest.hasPrefix("//") else { return } // opaque (mailto:x): no authority
        rest = rest.dropFirst(2)
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        authority = String(rest[..<end])
        rest = rest[end...]
        if let q = rest.unicodeScalars.firstIndex(of: "?") {
            query = rest[rest.unicodeScalars.index(after: q)...]
            rest = rest[..<q]
        }
        path = rest
    }
}

// `Intent.parseUri` for `intent:` and `android-app:` URIs (and the `#Intent;…;end` fragment on any URI,
// which is what `parseUri(uri, 0)` / `Intent.getIntent` accept). Linear, no recursion, never traps.
import PlainviewURL

extension AndroidIntent {
    /// Parses an intent URI the way Android's `Intent.parseUri` does:
    /// - `intent:SSP#Intent;scheme=S;…;end` → data `S:SSP` (no `scheme=` → data `SSP`, empty → no data);
    ///   the **last** `#` starts the intent part, so an earlier `#fragment` stays in the data;
    /// - `android-app://PKG[/SCHEME[/AUTHORITY/PATH…]][#Intent;…;end]` → package PKG, data rebuilt;
    /// - keys `action category type identifier launchFlags package component scheme sourceBounds SEL` and
    ///   typed extras `S. B. b. c. d. f. i. l. s.`; names and values are %-decoded;
    /// - any other URI without `#Intent;` → a VIEW intent whose data is the URI.
    ///
    /// Throws `ParseError` where Android throws `URISyntaxException` (no `end`, unknown extra type, a value
    /// that is not a number of its type), and also for an item without `;`, an extra without `=`,
    /// `launchFlags` that is not an Int32.
    /// The `intent:`/`android-app:` prefixes are matched case-insensitively: Chrome hands `parseUri` the
    /// canonical URL, whose scheme is already lower case.
    public static func parse(_ uri: String) throws(ParseError) -> AndroidIntent {
        let bytes = Array(uri.utf8)
        let isAndroidApp = hasPrefixIgnoringCase(bytes, "android-app:")
        let isIntent = hasPrefixIgnoringCase(bytes, "intent:")

        var hashIndex = bytes.lastIndex(of: UInt8(ascii: "#"))
        if let h = hashIndex, !hasPrefix(bytes[h...], "#Intent;") { hashIndex = nil }
        if hashIndex == nil && !isAndroidApp {
            // Not the new format: a VIEW intent of the URI itself (Android's simple / old-format cases).
            var intent = AndroidIntent()
            intent.action = actionView
            intent.data = uri.isEmpty ? nil : uri
            _ = isIntent
            return intent
        }

        var base = AndroidIntent()
        base.action = actionView
        var current = base
        var inSelector = false
        var explicitAction = false
        var scheme: String?
        var dataBytes = bytes[...]

        if let h = hashIndex {
            dataBytes = bytes[..<h]
            var i = h + 8 // after "#Intent;"
            var ended = false
            while i < bytes.count {
                if hasPrefix(bytes[i...], "end") { ended = true; break }
                guard let semi = bytes[i...].firstIndex(of: UInt8(ascii: ";")) else {
                    throw ParseError(
                        "item '\(text(bytes[i...].prefix(40)))' is not terminated by ';' (expected '…;end')", offset: i)
                }
                let item = bytes[i..<semi]
                let eq = item.firstIndex(of: UInt8(ascii: "="))
                let value = eq.map { uriDecode(bytes[($0 + 1)..<semi]) } ?? ""

                if hasPrefix(item, "action=") {
                    current.action = value
                    if !inSelector { explicitAction = true }
                } else if hasPrefix(item, "category=") {
                    if !current.categories.contains(value) { current.categories.append(value) }
                } else if hasPrefix(item, "type=") {
                    current.type = value
                } else if hasPrefix(item, "identifier=") {
                    current.identifier = value
                } else if hasPrefix(item, "launchFlags=") {
                    guard let f = javaDecodeInt32(value) else {
                        throw ParseError("launchFlags '\(value)' is not an integer (expected e.g. 0x10000000)", offset: i)
                    }
                    // Android clears the URI-permission grant flags unless the caller allows unsafe URIs.
                    current.flags = Int(UInt32(bitPattern: f) & ~immutableFlags)
                } else if hasPrefix(item, "package=") {
                    current.package = value
                } else if hasPrefix(item, "component=") {
                    current.component = AndroidComponentName(flattened: value)?.description
                } else if hasPrefix(item, "scheme=") {
                    if inSelector { current.data = value + ":" } else { scheme = value }
                } else if hasPrefix(item, "sourceBounds=") {
                    current.sourceBounds = value
                } else if item.elementsEqual("SEL".utf8) {
                    if !inSelector { base = current }
                    current = AndroidIntent()
                    inSelector = true
                } else {
                    let kind = item.count >= 2 && item[item.startIndex + 1] == UInt8(ascii: ".") ? item.first : nil
                    guard let kind, "SBbcdfils".utf8.contains(kind) else {
                        throw ParseError(
                            "unknown item '\(text(item.prefix(40)))' (expected action=, category=, type=, launchFlags=, package=, component=, scheme=, SEL, end or a typed extra S./B./b./c./d./f./i./l./s.)",
                            offset: i)
                    }
                    guard let eq else {
                        throw ParseError(
                            "extra '\(text(item.prefix(40)))' has no '=' (expected \(Character(Unicode.Scalar(kind))).name=value)",
                            offset: i)
                    }
                    let key = uriDecode(bytes[(item.startIndex + 2)..<eq])
                    current.extras[key] = try extra(kind: kind, value: value, offset: i)
                }
                i = semi + 1
            }
            if !ended {
                throw ParseError("the #Intent; part has no terminating 'end' (expected '…;end')", offset: bytes.count)
            }
        }

        var intent: AndroidIntent
        if inSelector {
            intent = base
            // Android keeps the selector only when the outer intent names no package.
            if intent.package == nil { intent.selector = Box(current) }
        } else {
            intent = current
        }

        // The data part.
        var data = text(dataBytes)
        if isIntent {
            // Drop the 7 bytes of `intent:`, not 7 Characters (a combining mark after `:` joins its Character).
            data = text(dataBytes.dropFirst(7))
            if let scheme { data = scheme + ":" + data }
        } else if isAndroidApp {
            let d = Array(dataBytes)
            guard d.count >= 14 else {
                throw ParseError("android-app URI too short (expected android-app://package[/scheme/host/path])", offset: 0)
            }
            if d[12] == UInt8(ascii: "/") && d[13] == UInt8(ascii: "/") {
                if let end0 = d[14...].firstIndex(of: UInt8(ascii: "/")) {
                    var end = end0
                    intent.package = text(d[14..<end])
                    var authority: String?
                    if end + 1 < d.count {
                        if let next = d[(end + 1)...].firstIndex(of: UInt8(ascii: "/")) {
                            scheme = text(d[(end + 1)..<next])
                            end = next
                            if end + 1 <= d.count, let next2 = d[(end + 1)...].firstIndex(of: UInt8(ascii: "/")) {
                                authority = text(d[(end + 1)..<next2])
                                end = next2
                            }
                        } else {
                            scheme = text(d[(end + 1)...])
                        }
                    }
                    if let scheme {
                        data = authority.map { "\(scheme)://\($0)\(text(d[end...]))" } ?? "\(scheme):"
                    } else {
                        if !explicitAction { intent.action = actionMain }
                        data = ""
                    }
                } else {
                    intent.package = text(d[14...])
                    if !explicitAction { intent.action = actionMain }
                    data = ""
                }
            } else {
                data = ""
            }
        }
        if !data.isEmpty { intent.data = data }
        return intent
    }

    /// FLAG_GRANT_READ/WRITE/PERSISTABLE/PREFIX_URI_PERMISSION.
    static let immutableFlags: UInt32 = 0x1 | 0x2 | 0x40 | 0x80

    private static func extra(kind: UInt8, value: String, offset: Int) throws(ParseError) -> IntentExtra {
        func bad(_ type: String) -> ParseError {
            ParseError("extra value '\(value.prefix(40))' is not a valid \(type)", offset: offset)
        }
        switch kind {
        case UInt8(ascii: "S"): return .string(value)
        // Java's Boolean.parseBoolean: "true" in any case, anything else is false.
        case UInt8(ascii: "B"): return .bool(value.lowercased() == "true")
        case UInt8(ascii: "b"): guard let v = Int8(value) else { throw bad("byte (-128…127)") }; return .byte(v)
        case UInt8(ascii: "c"):
            guard let first = value.unicodeScalars.first else { throw bad("char (one character)") }
            return .char(String(first))
        case UInt8(ascii: "d"):
            guard let v = javaNumberText(value).flatMap(Double.init) else { throw bad("double") }; return .double(v)
        case UInt8(ascii: "f"):
            guard let v = javaNumberText(value).flatMap(Float.init) else { throw bad("float") }
            return .float(v)
        case UInt8(ascii: "i"): guard let v = Int32(value) else { throw bad("int (32-bit)") }; return .int(v)
        case UInt8(ascii: "l"): guard let v = Int64(value) else { throw bad("long (64-bit)") }; return .long(v)
        case UInt8(ascii: "s"): guard let v = Int16(value) else { throw bad("short (16-bit)") }; return .short(v)
        default: throw bad("value")
        }
    }

    // MARK: Java number syntax

    /// `Integer.decode`: optional sign, then `0x`/`0X`/`#` hex, `0` octal, or decimal; must fit in Int32.
    static func javaDecodeInt32(_ s: String) -> Int32? {
        var rest = Substring(s)
        var negative = false
        if rest.hasPrefix("-") {
            negative = true; rest = rest.dropFirst()
        } else if rest.hasPrefix("+") {
            rest = rest.dropFirst()
        }
        var radix = 10
        if rest.hasPrefix("0x") || rest.hasPrefix("0X") {
            radix = 16; rest = rest.dropFirst(2)
        } else if rest.hasPrefix("#") {
            radix = 16; rest = rest.dropFirst()
        } else if rest.hasPrefix("0"), rest.count > 1 {
            radix = 8; rest = rest.dropFirst()
        }
        guard !rest.isEmpty, !rest.hasPrefix("-"), !rest.hasPrefix("+"), let magnitude = Int64(rest, radix: radix) else {
            return nil
        }
        return Int32(exactly: negative ? -magnitude : magnitude)
    }

    /// `Double.parseDouble` / `Float.parseFloat` syntax: trims blanks, accepts `NaN`, `Infinity`, a trailing
    /// `d`/`f`, and hex floats. Returns text Swift's `Double(_:)`/`Float(_:)` read the same way, or nil.
    static func javaNumberText(_ s: String) -> Substring? {
        var t = Substring(s)
        while let f = t.unicodeScalars.first, f.value <= 0x20 { t = t.dropFirst() }
        while let l = t.unicodeScalars.last, l.value <= 0x20 { t = t.dropLast() }
        let sign = t.hasPrefix("-") ? "-" : ""
        let unsigned = t.hasPrefix("-") || t.hasPrefix("+") ? t.dropFirst() : t
        if unsigned == "NaN" { return "nan" }
        if unsigned == "Infinity" { return Substring(sign + "inf") }
        let isHex = unsigned.hasPrefix("0x") || unsigned.hasPrefix("0X")
        if !isHex, let last = t.last, "dDfF".contains(last) { t = t.dropLast() }
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isHexDigit || "+-.xXpP".contains($0)) }) else { return nil }
        return t
    }

    // MARK: bytes and text

    static func hasPrefix(_ bytes: some Collection<UInt8>, _ prefix: String) -> Bool {
        bytes.starts(with: prefix.utf8)
    }

    /// `intent:` / `android-app:` case-insensitively (see `parse`).
    private static func hasPrefixIgnoringCase(_ bytes: [UInt8], _ p: String) -> Bool {
        guard bytes.count >= p.utf8.count else { return false }
        return zip(bytes, p.utf8).allSatisfy { a, b in
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(a) ? a + 32 : a
            return lower == b
        }
    }

    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Android's `Uri.decode`: `%XX` escapes as UTF-8 (invalid → U+FFFD); `+` stays `+`.
    static func uriDecode(_ bytes: some Collection<UInt8>) -> String {
        PercentEncoding.decode(text(bytes))
    }
}

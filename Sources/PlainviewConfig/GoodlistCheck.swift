// `plainview goodlist check URL…`: is each URL's host allowed, and by which entry.
import PlainviewURL
import NavigationPolicy

/// The answer for one URL.
public struct GoodlistCheckResult: Sendable, Hashable {
    /// The argument as given.
    public var input: String
    /// The normalised host, when one could be found.
    public var host: String?
    /// The most specific entry admitting the host.
    public var entry: GoodlistEntry?
    /// Why no host could be taken from the input.
    public var error: String?
    public var allowed: Bool { entry != nil }
}

public enum GoodlistCheck {
    /// Checks each input against the list. An input with `://` (or starting `http:`/`https:`) is a URL; its
    /// host is taken the way browsers do for http(s) (WHATWG: backslashes count as slashes, user info before
    /// the last `@` is dropped, the port is dropped, percent-escapes decoded). Anything else is a bare host.
    public static func check(_ inputs: [String], against list: Goodlist) -> [GoodlistCheckResult] {
        inputs.map { input in
            switch host(of: input) {
            case .failure(let why):
                return GoodlistCheckResult(input: input, host: nil, entry: nil, error: why.message)
            case .success(let host):
                return GoodlistCheckResult(input: input, host: host, entry: list.match(host: host), error: nil)
            }
        }
    }

    public struct HostError: Error, Sendable, Hashable { public var message: String }

    /// The normalised host of an http(s) URL or a bare host.
    public static func host(of input: String) -> Result<String, HostError> {
        let trimmed = input.trimmingASCIIControlsAndSpaces()
        var rest: Substring
        if let colon = trimmed.firstIndex(of: ":"), isScheme(trimmed[..<colon]),
           !trimmed[trimmed.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) {
            let scheme = trimmed[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else {
                return .failure(HostError(message: "not an http(s) URL (scheme '\(scheme)'): the goodlist applies to web pages only"))
            }
            rest = trimmed[trimmed.index(after: colon)...]
            // Special-scheme authority: any run of '/' and '\' before it is skipped.
            rest = rest.drop { $0 == "/" || $0 == "\\" }
            let end = rest.firstIndex { $0 == "/" || $0 == "\\" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            rest = rest[..<end]
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        } else {
            rest = Substring(trimmed)  // a bare host, maybe with a port
        }
        if rest.hasPrefix("[") {
            return .failure(HostError(message: "an IPv6 address literal; goodlist patterns name host names"))
        }
        if let colon = rest.lastIndex(of: ":") {
            let port = rest[rest.index(after: colon)...]
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return .failure(HostError(message: "the port '\(port)' is not a number"))
            }
            rest = rest[..<colon]
        }
        guard !rest.isEmpty else { return .failure(HostError(message: "no host in '\(input)'")) }
        guard let decoded = percentDecoded(rest) else {
            return .failure(HostError(message: "the host's percent-escapes are not valid UTF-8"))
        }
        guard let host = HostName.normalize(decoded) else {
            return .failure(HostError(message: "'\(decoded)' is not a valid host"))
        }
        return .success(host)
    }

    static func isScheme(_ s: Substring) -> Bool {
        guard let f = s.unicodeScalars.first, ("a"..."z").contains(f) || ("A"..."Z").contains(f) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    static func percentDecoded(_ s: Substring) -> String? {
        guard s.contains("%") else { return String(s) }
        var out: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.first {
            u = u.dropFirst()
            if b == UInt8(ascii: "%"), u.count >= 2, let hi = hexValue(u[u.startIndex]), let lo = hexValue(u[u.startIndex + 1]) {
                out.append(hi << 4 | lo)
                u = u.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}

extension String {
    /// WHATWG strips leading and trailing C0 controls and spaces, and removes tabs and newlines anywhere.
    func trimmingASCIIControlsAndSpaces() -> String {
        let scalars = unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var view = Substring(String(String.UnicodeScalarView(scalars)))
        while let f = view.unicodeScalars.first, f.value <= 0x20 { view = view.dropFirst() }
        while let l = view.unicodeScalars.last, l.value <= 0x20 { view = view.dropLast() }
        return String(view)
    }
}

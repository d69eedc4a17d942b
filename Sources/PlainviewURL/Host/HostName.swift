// Host normalisation for comparisons: the URL Standard's host parser (IDNA → punycode, IPv4 forms, IPv6)
// plus trailing-dot removal. The goodlist, allowedHosts and the engine all compare through this one function.

public enum HostName {
    /// The canonical form of a host for comparison: lower case, no trailing dot, IDN as punycode (`xn--…`),
    /// IPv4 in dotted decimal, IPv6 in brackets and compressed. nil when it is not a valid host of an http(s) URL.
    public static func normalize(_ raw: String) -> String? {
        let bytes = Array(raw.utf8)
        guard !bytes.isEmpty, let host = WebURL.parseHost(bytes[...], special: true) else { return nil }
        var h = host.serialized
        if case .domain = host {
            if h.hasSuffix(".") { h.removeLast() }
            if h.isEmpty || h.hasSuffix(".") { return nil }
        }
        return h
    }
}

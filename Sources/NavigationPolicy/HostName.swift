// Host normalisation. STUB: full IDNA (UTS #46 → punycode) is being written (policy issue).

public enum HostName {
    /// The canonical form of a host for comparison: lower case, no trailing dot, IDN as punycode (`xn--…`).
    /// nil when it is not a valid host.
    public static func normalize(_ raw: String) -> String? {
        var h = raw.lowercased()
        if h.hasSuffix(".") { h.removeLast() }
        guard !h.isEmpty, h.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 && $0 != UInt8(ascii: "/") }) else { return nil }
        return h
    }
}

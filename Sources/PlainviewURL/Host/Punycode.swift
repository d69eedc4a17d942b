// RFC 3492 Punycode (Bootstring with the IDNA parameters). Pure, bounded: every loop is over the input once
// per emitted code point, and overflow is checked instead of trapping.

/// Punycode encoding and decoding of one DNS label (without the `xn--` prefix).
public enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    private static func adapt(_ delta: Int, _ numPoints: Int, _ firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(97 + d) : UInt8(22 + d) // a-z, 0-9
    }

    private static func value(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c) - 22
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(c) - 97
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(c) - 65
        default: nil
        }
    }

    /// Encodes code points to Punycode (lower-case digits). nil on overflow.
    public static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output: [UInt8] = []
        for s in input where s.value < 0x80 { output.append(UInt8(s.value)) }
        let basicCount = output.count
        var h = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        let values = input.map { Int($0.value) }
        while h < values.count {
            guard let m = values.filter({ $0 >= n }).min() else { return nil }
            let (mul, o1) = (m - n).multipliedReportingOverflow(by: h + 1)
            guard !o1 else { return nil }
            let (d2, o2) = delta.addingReportingOverflow(mul)
            guard !o2, d2 < Int(Int32.max) else { return nil }
            delta = d2
            n = m
            for c in values {
                if c < n {
                    delta += 1
                    guard delta < Int(Int32.max) else { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, h + 1, h == basicCount)
                    delta = 0
                    h += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a Punycode label. nil when it is not valid Punycode (non-ASCII input, bad digit, overflow).
    public static func decode(_ input: String) -> [Unicode.Scalar]? {
        let bytes = Array(input.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [Unicode.Scalar] = []
        var start = 0
        if let lastDash = bytes.lastIndex(of: UInt8(ascii: "-")) {
            for b in bytes[..<lastDash] { output.append(Unicode.Scalar(b)) }
            start = lastDash + 1
        }
        var n = initialN, i = 0, bias = initialBias
        var pos = start
        while pos < bytes.count {
            let oldi = i
            var w = 1
            var k = base
            while true {
                guard pos < bytes.count, let d = value(bytes[pos]) else { return nil }
                pos += 1
                let (dw, o1) = d.multipliedReportingOverflow(by: w)
                let (ni, o2) = i.addingReportingOverflow(dw)
                guard !o1, !o2, ni < Int(Int32.max) else { return nil }
                i = ni
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                let (nw, o3) = w.multipliedReportingOverflow(by: base - t)
                guard !o3, nw < Int(Int32.max) else { return nil }
                w = nw
                k += base
            }
            bias = adapt(i - oldi, output.count + 1, oldi == 0)
            let (nn, o4) = n.addingReportingOverflow(i / (output.count + 1))
            guard !o4, nn <= 0x10FFFF else { return nil }
            n = nn
            i %= output.count + 1
            guard let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }
}

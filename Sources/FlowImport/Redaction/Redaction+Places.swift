// The places of a RedactionReport, a few bytes each: a recording of 20,000 pages has over 100,000 places, and
// as strings (`log.entries[12345].request.headers.Cookie`, `REDACTED-COOKIE-6789`) with an index of them they
// took more memory than the recording itself. Each place is numbers: the entry, and ids of interned strings
// (location after the entry, field name, placeholder with its number taken out).

/// The places of a RedactionReport, in the order first recorded, counted per (kind, location, name, placeholder).
struct RedactionPlaces: Sendable, Hashable {
    struct Record: Sendable, Hashable {
        var kind: RedactionKind
        /// N of a location `log.entries[N]…`, else -1.
        var entry: Int32
        /// The location after `log.entries[N]` (or all of it): an id in `strings`.
        var rest: Int32
        var name: Int32
        /// The placeholder with its number written `#` (`REDACTED-COOKIE-#`): an id in `strings`.
        var placeholder: Int32
        /// The placeholder's number, -1 when it has none taken out.
        var number: Int32
        var count: Int32
    }

    private(set) var records: [Record] = []
    /// Interned: location rests, names, placeholder shapes.
    private(set) var strings: [String] = []
    private var ids: [String: Int32] = [:]

    /// What one location's records are told apart by.
    private struct Key: Hashable {
        var kind: RedactionKind
        var rest: Int32
        var name: Int32
        var placeholder: Int32
        var number: Int32
    }

    /// Places are recorded one entry after the other, so only the records of the entry (or other location)
    /// recorded last are indexed; one recorded again after another came between is indexed anew by a scan.
    private var window: Int64 = .min
    private var windowIndex: [Key: Int32] = [:]
    private var windowsSeen: Set<Int64> = []

    mutating func record(_ kind: RedactionKind, at location: String, name: String, placeholder: String, count: Int) {
        let (entry, rest) = split(location)
        let (shape, number) = shapeOf(placeholder)
        let key = Key(kind: kind, rest: intern(rest), name: intern(name), placeholder: intern(shape), number: number)
        let w = entry >= 0 ? Int64(entry) : -1 - Int64(key.rest)
        if w != window {
            window = w
            windowIndex = [:]
            if !windowsSeen.insert(w).inserted {
                for (i, r) in records.enumerated() where windowOf(r) == w {
                    windowIndex[Key(kind: r.kind, rest: r.rest, name: r.name, placeholder: r.placeholder, number: r.number)] =
                        Int32(i)
                }
            }
        }
        if let i = windowIndex[key] {
            records[Int(i)].count += Int32(clamping: count)
        } else {
            windowIndex[key] = Int32(records.count)
            records.append(
                Record(
                    kind: kind, entry: entry, rest: key.rest, name: key.name, placeholder: key.placeholder, number: number,
                    count: Int32(clamping: count)))
        }
    }

    func location(_ r: Record) -> String {
        r.entry >= 0 ? "log.entries[\(r.entry)]" + strings[Int(r.rest)] : strings[Int(r.rest)]
    }

    func placeholder(_ r: Record) -> String {
        let shape = strings[Int(r.placeholder)]
        guard r.number >= 0 else { return shape }
        return shape.replacingOccurrences(of: "#", with: String(r.number))
    }

    /// Placeholders as one number each (for counting distinct ones).
    func placeholderCode(_ r: Record) -> Int64 { Int64(r.placeholder) << 32 | Int64(UInt32(bitPattern: r.number)) }

    private func windowOf(_ r: Record) -> Int64 { r.entry >= 0 ? Int64(r.entry) : -1 - Int64(r.rest) }

    private mutating func intern(_ s: String) -> Int32 {
        if let id = ids[s] { return id }
        let id = Int32(strings.count)
        strings.append(s)
        ids[s] = id
        return id
    }

    /// `log.entries[12].request.url` → (12, `.request.url`); any other location → (-1, itself).
    private func split(_ location: String) -> (Int32, String) {
        let u = location.utf8
        let prefix = "log.entries[".utf8
        guard u.starts(with: prefix) else { return (-1, location) }
        var i = u.index(u.startIndex, offsetBy: prefix.count)
        let digitsStart = i
        var n: Int32 = 0
        while i != u.endIndex, let d = digit(u[i]) {
            guard n < 100_000_000 else { return (-1, location) }
            n = n * 10 + d
            i = u.index(after: i)
        }
        let count = u.distance(from: digitsStart, to: i)
        guard count > 0, i != u.endIndex, u[i] == UInt8(ascii: "]"), count == 1 || u[digitsStart] != UInt8(ascii: "0")
        else { return (-1, location) }
        return (n, String(location[u.index(after: i)...]))
    }

    /// `REDACTED-COOKIE-12` → (`REDACTED-COOKIE-#`, 12) when the text has one run of digits (no leading zero,
    /// at most 9) and no `#`; else (itself, -1).
    private func shapeOf(_ placeholder: String) -> (String, Int32) {
        var runs = 0
        var inRun = false
        var start = placeholder.utf8.startIndex, end = start
        for i in placeholder.utf8.indices {
            let c = placeholder.utf8[i]
            if c == UInt8(ascii: "#") { return (placeholder, -1) }
            if digit(c) != nil {
                if !inRun {
                    runs += 1
                    start = i
                }
                inRun = true
                end = placeholder.utf8.index(after: i)
            } else {
                inRun = false
            }
        }
        guard runs == 1 else { return (placeholder, -1) }
        let digits = placeholder.utf8[start..<end]
        guard digits.count <= 9, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return (placeholder, -1) }
        let n = digits.reduce(Int32(0)) { $0 * 10 + digit($1)! }
        return (String(placeholder[..<start]) + "#" + String(placeholder[end...]), n)
    }

    private func digit(_ c: UInt8) -> Int32? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int32(c - UInt8(ascii: "0")) : nil
    }
}

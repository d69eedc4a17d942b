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

    /// The location and name of the record before, as numbers (a text's findings share them), and the placeholder
    /// shapes met so far by the bytes around their number (a recording's placeholders share a few): worked out
    /// once, not for every record.
    private var lastLocation: (location: String, entry: Int32, rest: Int32)?
    private var lastName: (name: String, id: Int32)?
    private var shapes: [(before: [UInt8], after: [UInt8], id: Int32)] = []
    private static let shapesKept = 64

    mutating func record(_ kind: RedactionKind, at location: String, name: String, placeholder: String, count: Int) {
        let entry: Int32, rest: Int32
        if let last = lastLocation, last.location == location {
            (entry, rest) = (last.entry, last.rest)
        } else {
            let (n, text) = split(location)
            (entry, rest) = (n, intern(text))
            lastLocation = (location, entry, rest)
        }
        let nameID: Int32
        if let last = lastName, last.name == name {
            nameID = last.id
        } else {
            nameID = intern(name)
            lastName = (name, nameID)
        }
        let (shape, number) = shapeID(placeholder)
        let key = Key(kind: kind, rest: rest, name: nameID, placeholder: shape, number: number)
        let w = entry >= 0 ? Int64(entry) : -1 - Int64(key.rest)
        if w != window {
            window = w
            windowIndex.removeAll(keepingCapacity: true)
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

    /// Two reports' places are equal when their records and strings are: the rest only speeds up recording.
    static func == (a: RedactionPlaces, b: RedactionPlaces) -> Bool { a.records == b.records && a.strings == b.strings }

    func hash(into hasher: inout Hasher) {
        hasher.combine(records)
        hasher.combine(strings)
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
        while i != u.endIndex, let d = Self.digit(u[i]) {
            guard n < 100_000_000 else { return (-1, location) }
            n = n * 10 + d
            i = u.index(after: i)
        }
        let count = u.distance(from: digitsStart, to: i)
        guard count > 0, i != u.endIndex, u[i] == UInt8(ascii: "]"), count == 1 || u[digitsStart] != UInt8(ascii: "0")
        else { return (-1, location) }
        return (n, String(location[u.index(after: i)...]))
    }

    /// The interned shape of a placeholder and its number: `REDACTED-COOKIE-12` → (`REDACTED-COOKIE-#`, 12) when
    /// the text has one run of digits (no leading zero, at most 9) and no `#`; else (itself, -1). A shape met
    /// before is found by its bytes, without making its text again.
    private mutating func shapeID(_ placeholder: String) -> (Int32, Int32) {
        var text = placeholder
        let found: (before: Range<Int>, after: Range<Int>, number: Int32, known: Int32?)? = text.withUTF8 { u in
            var runs = 0
            var inRun = false
            var start = 0, end = 0
            for i in 0..<u.count {
                let c = u[i]
                if c == UInt8(ascii: "#") { return nil }
                if Self.digit(c) != nil {
                    if !inRun {
                        runs += 1
                        start = i
                    }
                    inRun = true
                    end = i + 1
                } else {
                    inRun = false
                }
            }
            guard runs == 1, end - start <= 9, end - start == 1 || u[start] != UInt8(ascii: "0") else { return nil }
            let n = u[start..<end].reduce(Int32(0)) { $0 * 10 + Self.digit($1)! }
            let before = UnsafeBufferPointer(rebasing: u[..<start]), after = UnsafeBufferPointer(rebasing: u[end...])
            let known = shapes.first { $0.before.elementsEqual(before) && $0.after.elementsEqual(after) }?.id
            return (0..<start, end..<u.count, n, known)
        }
        guard let found else { return (intern(placeholder), -1) }
        if let id = found.known { return (id, found.number) }
        let bytes = Array(placeholder.utf8)
        let before = Array(bytes[found.before]), after = Array(bytes[found.after])
        let id = intern(String(decoding: before + Array("#".utf8) + after, as: UTF8.self))
        if shapes.count < RedactionPlaces.shapesKept { shapes.append((before, after, id)) }
        return (id, found.number)
    }

    private static func digit(_ c: UInt8) -> Int32? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int32(c - UInt8(ascii: "0")) : nil
    }
}

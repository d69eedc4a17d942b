// What one start tag may cost, enforced on the bytes before libxml2 sees them.
//
// libxml2 2.9 checks each attribute of a start tag against every earlier one (200,000 attributes on one
// element cost 32 s of CPU), and it holds an attribute value whole, twice (its input buffer and the value it
// builds), before handing it over. So the bytes pass through a small tokenizer that follows libxml2's own
// reading of a start tag (attributes, quoted and unquoted values, `/>`, raw text in `<script>` and `<style>`),
// drops the attributes of a tag past `maxAttributes`, and cuts an attribute value past `maxValueBytes` at a
// character boundary. Both are counted and reported in the scan result.
//
// The same reading also spares libxml2 the attributes no finding can come from. The scan reads event handlers
// (`onload`, `onclick`…) of every element, and of the elements `Tag` names only the attributes
// `Tag.readAttributes` lists (`href` and `target` of `<a>`…); every other attribute (`class`, `id`, `style`,
// `src` of `<img>`…) is dropped from a plain start tag before libxml2 parses it, unless it holds a byte past
// ASCII (libxml2 settles the page's encoding on those). libxml2 uses an element's attributes for nothing but
// the start-tag event, and `<meta>`'s for its charset (kept whole). On the benchmark's checkout pages this is
// a fifth of libxml2's work.
// It is off for the rest of a page once a byte sequence appears that could switch to a 7-bit encoding in which
// ASCII bytes are not ASCII characters (ISO-2022's ESC, HZ's `~{`, UTF-7's `+A`): there the bytes seen here
// may not be the markup libxml2 decodes. Otherwise pages within the limits pass through byte for byte.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-element limits, and what was cut.
struct MarkupLimiter {
    /// Attributes kept per start tag; the rest of the tag's attributes are dropped.
    static let maxAttributes = 1_000
    /// Bytes kept of one attribute value (2 MiB, the longest URL Chromium accepts); the rest is dropped.
    static let maxValueBytes = 2 * 1024 * 1024
    /// libxml2 reads at most this many bytes as one attribute name; the rest starts another attribute.
    private static let maxNameBytes = 100

    /// Start tags whose attributes past `maxAttributes` were dropped, and how many attributes that was.
    private(set) var elementsCut = 0
    private(set) var attributesDropped = 0
    /// Attribute values cut to `maxValueBytes`, and the bytes dropped from them.
    private(set) var valuesCut = 0
    private(set) var valueBytesDropped = 0

    private enum State: UInt8 {
        case data, lessThan, tagName, endTag, markup, bang, bangDash, comment
        case beforeAttribute, attributeName, bogusAttribute, afterAttributeName, slash, beforeValue
        case quotedValue, unquotedValue
        case rawText, rawLessThan, rawSlash
    }

    private var state = State.data
    /// Bytes of the tag name matched so far against `script` / `style` (0: neither, or past it).
    private var nameCode: UInt64 = 0
    private var nameLength = 0
    /// The open start tag is `<script` or `<style`: its content is raw text up to `</name`.
    private var rawName: [UInt8] = []
    private var rawMatched = 0
    private var dashes = 0
    private var attributes = 0
    private var attributeLength = 0
    private var quote: UInt8 = 0
    private var valueLength = 0
    /// Dropping the rest of this tag's attributes / of this value.
    private var droppingTag = false
    private var droppingValue = false
    /// Ordinary tags are read by `ordinaryTag` in one pass; off only to test it against the state machine.
    var fastPath = true
    /// Drops the attributes of uncollected elements other than event handlers (see the top of this file); off
    /// for tests that compare the output with and without it, and once the page may be in a 7-bit encoding.
    var dropsUnreadAttributes = true
    /// Start tags whose unread attributes were dropped, and how many (not reported: nothing found is lost).
    private(set) var tagsTrimmed = 0
    private(set) var unreadAttributesDropped = 0
    /// The event-handler attributes of the tag `ordinaryTag` read last, when its others are dropped: each as
    /// its start, its end, and 1 when a blank must go before it.
    private var handlerSpans: [Int] = []
    /// The global tables, fetched once per limiter (each use of a global checks its one-time initialisation).
    private let classes = fastClasses
    private let kept = keptAttributes

    private static let script = Array("script".utf8), style = Array("style".utf8)
    /// `script` and `style` as `packing` packs names (literals: a static `let` is initialised lazily,
    /// checked at every use).
    fileprivate static var scriptCode: UInt64 { 0x73_63_72_69_70_74 }
    fileprivate static var styleCode: UInt64 { 0x73_74_79_6C_65 }

    /// Filters `count` bytes at `p` in place; returns how many remain (a prefix of `p`). Runs of bytes in one
    /// state (text, a name, a quoted value, blanks) are found with one tight loop or `memchr` and moved as a block.
    mutating func filter(_ p: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        if dropsUnreadAttributes, Self.mayLeaveASCII(p, count) { dropsUnreadAttributes = false }
        var r = 0, w = 0
        while r < count {
            let c = p[r]
            switch state {
            case .data where fastPath:
                // Text, end tags and ordinary start tags, in one loop: what most of a page is.
                skipOrdinaryMarkup(p, &w, &r, count)
            case .data, .rawText:
                // Text (or script/style text): everything up to the next `<` passes untouched.
                let end = find(UInt8(ascii: "<"), p, r, count)
                move(p, &w, &r, end == count ? end - r : end - r + 1)
                if end < count { state = state == .data ? .lessThan : .rawLessThan }
            case .lessThan:
                if isLetter(c) {
                    state = .tagName; nameLength = 0; nameCode = 0; attributes = 0; droppingTag = false
                    continue // the letter is the name's first
                }
                switch c {
                case UInt8(ascii: "/"): state = .endTag
                case UInt8(ascii: "!"): state = .bang
                case UInt8(ascii: "?"): state = .markup
                default: state = .data; continue
                }
                move(p, &w, &r, 1)
            case .bang:
                if c == UInt8(ascii: "-") { state = .bangDash; move(p, &w, &r, 1) } else { state = .markup }
            case .bangDash:
                if c == UInt8(ascii: "-") { state = .comment; dashes = 0; move(p, &w, &r, 1) } else { state = .markup }
            case .comment:
                if c == UInt8(ascii: ">"), dashes >= 2 { state = .data }
                dashes = c == UInt8(ascii: "-") ? dashes + 1 : 0
                move(p, &w, &r, 1)
            case .markup, .endTag:
                // `</x …>`, `<!DOCTYPE …>`, `<?…>`: libxml2 skips to the next `>`.
                let end = find(UInt8(ascii: ">"), p, r, count)
                move(p, &w, &r, end == count ? end - r : end - r + 1)
                if end < count { state = .data }
            case .tagName:
                var e = r
                while e < count, isNameByte(p[e]) {
                    if nameLength < 8 { nameCode = packing(nameCode, p[e]) }
                    nameLength += 1
                    e += 1
                }
                move(p, &w, &r, e - r)
                if e < count { state = .beforeAttribute }
            case .beforeAttribute:
                if isBlank(c) {
                    var e = r + 1
                    while e < count, isBlank(p[e]) { e += 1 }
                    attributeBytes(p, &w, &r, e - r)
                } else if c == UInt8(ascii: ">") {
                    endStartTag(p, &w, &r, selfClosing: false)
                } else if c == UInt8(ascii: "/") {
                    state = .slash; attributeBytes(p, &w, &r, 1)
                } else {
                    startAttribute(bogus: !isNameStart(c))
                }
            case .slash:
                if c == UInt8(ascii: ">") {
                    endStartTag(p, &w, &r, selfClosing: !droppingTag)
                } else {
                    startAttribute(bogus: true)
                } // `/x` is bogus
            case .attributeName:
                if isNameByte(c) {
                    // libxml2 reads at most `maxNameBytes` as one name; the rest starts another attribute.
                    var e = r
                    while e < count, isNameByte(p[e]), attributeLength < Self.maxNameBytes { attributeLength += 1; e += 1 }
                    attributeBytes(p, &w, &r, e - r)
                    if e < count, isNameByte(p[e]) { startAttribute(bogus: false) }
                } else if isBlank(c) {
                    state = .afterAttributeName; attributeBytes(p, &w, &r, 1)
                } else if c == UInt8(ascii: "=") {
                    state = .beforeValue; attributeBytes(p, &w, &r, 1)
                } else {
                    state = .beforeAttribute
                }
            case .bogusAttribute:
                // libxml2 skips a bogus attribute up to a blank, `>` or `/>`.
                var e = r
                while e < count, !isBlank(p[e]), p[e] != UInt8(ascii: ">"),
                    !(p[e] == UInt8(ascii: "/") && e + 1 < count && p[e + 1] == UInt8(ascii: ">"))
                { e += 1 }
                attributeBytes(p, &w, &r, e - r)
                if e < count { state = .beforeAttribute }
            case .afterAttributeName:
                if isBlank(c) {
                    attributeBytes(p, &w, &r, 1)
                } else if c == UInt8(ascii: "=") {
                    state = .beforeValue; attributeBytes(p, &w, &r, 1)
                } else {
                    state = .beforeAttribute
                }
            case .beforeValue:
                if isBlank(c) { attributeBytes(p, &w, &r, 1); continue }
                valueLength = 0; droppingValue = false
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c; state = .quotedValue; attributeBytes(p, &w, &r, 1)
                } else {
                    state = .unquotedValue
                }
            case .quotedValue:
                // A quoted value runs to its closing quote, across `>` and newlines.
                let end = find(quote, p, r, count)
                valueBytes(p, &w, &r, upTo: end)
                if end < count { state = .beforeAttribute; attributeBytes(p, &w, &r, 1) } // the closing quote
            case .unquotedValue:
                var end = r
                while end < count, !isBlank(p[end]), p[end] != UInt8(ascii: ">") { end += 1 }
                valueBytes(p, &w, &r, upTo: end)
                if end < count { state = .beforeAttribute }
            case .rawLessThan:
                if c == UInt8(ascii: "/") { state = .rawSlash; rawMatched = 0; move(p, &w, &r, 1) } else { state = .rawText }
            case .rawSlash:
                // libxml2 (recovering) ends a script or style at `</` followed by its name, in any case.
                if c | 0x20 == rawName[rawMatched] {
                    rawMatched += 1
                    move(p, &w, &r, 1)
                    if rawMatched == rawName.count { state = .endTag }
                } else {
                    state = .rawText
                }
            }
        }
        return w
    }

    // MARK: the fast path

    /// Passes text, end tags and ordinary start tags from `r` on, as the state machine would, until the end of
    /// the piece, a `<` it leaves to the state machine (then `r` is just past it, in `lessThan`), or the `>` of a
    /// `<script>` or `<style>` (then in `rawText`).
    private mutating func skipOrdinaryMarkup(_ p: UnsafeMutablePointer<UInt8>, _ w: inout Int, _ r: inout Int, _ count: Int) {
        while true {
            let lt = find(UInt8(ascii: "<"), p, r, count)
            guard lt + 1 < count else {
                move(p, &w, &r, lt == count ? lt - r : lt - r + 1)
                if lt < count { state = .lessThan }
                return
            }
            let c = p[lt + 1]
            var end = 0 // just past the `>` that closes the tag; 0: the state machine reads it
            var raw = false
            if c == UInt8(ascii: "/") {
                // An end tag: libxml2 skips to the next `>`.
                let gt = find(UInt8(ascii: ">"), p, lt + 2, count)
                if gt < count { end = gt + 1 }
            } else if isLetter(c), let tag = ordinaryTag(p, lt + 1, count) {
                end = tag.end
                if !tag.selfClosing { // `<script/>` holds no raw text (`<script src=a/>` does: the `/` is the value's)
                    if tag.nameLength == 6, tag.nameCode == Self.scriptCode {
                        rawName = Self.script; raw = true
                    } else if tag.nameLength == 5, tag.nameCode == Self.styleCode {
                        rawName = Self.style; raw = true
                    }
                }
                if tag.dropped > 0 {
                    // What comes before the tag and `<name` stay, then the kept attributes, each after one blank (there
                    // is room: a blank or a dropped attribute was there), then the `>` or `/>` below.
                    move(p, &w, &r, lt + 1 + tag.nameLength - r)
                    var k = 0
                    while k < handlerSpans.count {
                        if handlerSpans[k + 2] != 0 { p[w] = 0x20; w += 1 }
                        r = handlerSpans[k]
                        move(p, &w, &r, handlerSpans[k + 1] - r)
                        k += 3
                    }
                    // `/>` after a kept unquoted value would be read as part of it (`id=f/>`): a blank goes first.
                    // There is room: something was dropped.
                    if tag.selfClosing && !handlerSpans.isEmpty { p[w] = 0x20; w += 1 }
                    r = end - (tag.selfClosing ? 2 : 1)
                    tagsTrimmed += 1
                    unreadAttributesDropped += tag.dropped
                }
            }
            guard end > 0 else {
                move(p, &w, &r, lt - r + 1)
                state = .lessThan
                return
            }
            move(p, &w, &r, end - r)
            if raw { state = .rawText; return }
        }
    }

    /// A start tag from its name (at `start`) to its `>`, when it is wholly in the piece, shorter than
    /// `maxAttributes` bytes (so no limit can apply) and in the plain form: a name, then attributes each a
    /// name (shorter than libxml2's longest), optionally `=` and a quoted or unquoted value, separated by
    /// blanks, closed by `>` or `/>`. Anything else is nil: the state machine reads it. For an element the scan
    /// does not collect, `dropped` counts the attributes that are not event handlers, and `handlerSpans` holds
    /// the handlers to keep.
    private mutating func ordinaryTag(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ count: Int)
        -> (end: Int, nameLength: Int, nameCode: UInt64, selfClosing: Bool, dropped: Int)?
    {
        let limit = min(count, start + Self.maxAttributes)
        let classes = self.classes
        @inline(__always) func has(_ c: UInt8, _ bit: UInt8) -> Bool { classes[Int(c)] & bit != 0 }
        var i = start
        var code: UInt64 = 0
        while i < limit, has(p[i], nameByte) {
            if i - start < 8 { code = packing(code, p[i]) }
            i += 1
        }
        let nameLength = i - start
        // libxml2 reads at most `maxNameBytes` of an element name too: a longer one is left whole.
        // The attributes kept besides handlers; nil keeps them all (`<meta>`, or dropping off).
        var kept: KeptAttributes.List?
        if dropsUnreadAttributes && nameLength < Self.maxNameBytes {
            let list = self.kept.lookUp(code, nameLength)
            if list.count >= 0 { kept = list }
        }
        let trims = kept != nil
        if trims && !handlerSpans.isEmpty { handlerSpans.removeAll(keepingCapacity: true) }
        var dropped = 0
        var blankBefore = false, previousDropped = false
        while i < limit {
            let c = p[i]
            if has(c, blank) { i += 1; blankBefore = true; continue }
            if c == UInt8(ascii: ">") { return (i + 1, nameLength, code, false, dropped) }
            if c == UInt8(ascii: "/") {
                guard i + 1 < limit, p[i + 1] == UInt8(ascii: ">") else { return nil }
                return (i + 2, nameLength, code, true, dropped)
            }
            // An attribute: its name, then perhaps `=` and a value.
            guard has(c, nameStart) else { return nil }
            let attributeStart = i
            i += 1
            while i < limit, has(p[i], nameByte) { i += 1 }
            guard i - attributeStart < Self.maxNameBytes else { return nil }
            let attributeNameEnd = i
            var j = i
            while j < limit, has(p[j], blank) { j += 1 }
            if j < limit, p[j] == UInt8(ascii: "=") {
                j += 1
                while j < limit, has(p[j], blank) { j += 1 }
                guard j < limit else { return nil }
                let q = p[j]
                if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                    let close = find(q, p, j + 1, limit)
                    guard close < limit else { return nil }
                    i = close + 1
                } else {
                    while j < limit, !has(p[j], valueEnd) { j += 1 }
                    i = j
                }
            } // else a bare attribute: it ends with its name
            if let kept {
                // Kept: an event handler, an attribute the scan reads (libxml2 folds names to lower case, and so does
                // `| 0x20` to the letters that make up the names kept), and any attribute holding a byte past ASCII:
                // libxml2 decides the page's encoding on such bytes (invalid UTF-8 switches it to Latin-1), so it
                // must see every one of them. Any other attribute goes.
                let attributeNameLength = attributeNameEnd - attributeStart
                if attributeNameLength >= 2 && p[attributeStart] | 0x20 == UInt8(ascii: "o")
                    && p[attributeStart + 1] | 0x20 == UInt8(ascii: "n")
                    || self.kept.contains(kept, p + attributeStart, attributeNameLength)
                    || holdsNonASCII(p + attributeNameEnd, i - attributeNameEnd)
                {
                    handlerSpans.append(attributeStart)
                    handlerSpans.append(i)
                    handlerSpans.append(blankBefore || previousDropped ? 1 : 0)
                    previousDropped = false
                } else {
                    dropped += 1
                    previousDropped = true
                }
            }
            blankBefore = false
        }
        return nil
    }

    /// True when the piece holds a byte sequence that can switch to a 7-bit encoding in which ASCII bytes are
    /// not ASCII text: ESC (ISO-2022-JP/KR/CN), `~{` (HZ), or `+AA`, `+AC`, `+AD` (how UTF-7 writes blanks,
    /// `"`, `'`, `<`, `=` and `>`). A sequence cut by the piece's end counts.
    private static func mayLeaveASCII(_ p: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
        if memchr(p, 0x1B, count) != nil { return true }
        /// True when some `byte` in the piece is followed by what `rest` accepts at the index after it.
        @inline(__always) func occurs(_ byte: UInt8, _ rest: (Int) -> Bool) -> Bool {
            var from = 0
            while from < count, let hit = memchr(p + from, Int32(byte), count - from) {
                let i = hit.assumingMemoryBound(to: UInt8.self) - p
                if rest(i + 1) { return true }
                from = i + 1
            }
            return false
        }
        let a = UInt8(ascii: "A")
        return occurs(UInt8(ascii: "~")) { $0 >= count || p[$0] == UInt8(ascii: "{") }
            || occurs(UInt8(ascii: "+")) { i in
                i >= count
                    || (p[i] == a
                        && (i + 1 >= count || p[i + 1] == a || p[i + 1] == UInt8(ascii: "C") || p[i + 1] == UInt8(ascii: "D")))
            }
    }

    // MARK: steps

    /// Keeps `n` bytes at `r`: moves them to `w` (when something before was dropped).
    @inline(__always)
    private func move(_ p: UnsafeMutablePointer<UInt8>, _ w: inout Int, _ r: inout Int, _ n: Int) {
        if w != r, n > 0 {
            if n <= 32 {
                // A short run (a tag, a word of text) is copied here rather than through a call to memmove:
                // forwards, eight bytes at a time, each word read before it is written, which is safe as `w < r`.
                var k = 0
                while k + 8 <= n {
                    UnsafeMutableRawPointer(p + w + k).storeBytes(
                        of: UnsafeRawPointer(p + r + k).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    k += 8
                }
                while k < n { p[w + k] = p[r + k]; k += 1 }
            } else {
                (p + w).update(from: p + r, count: n)
            }
        }
        w += n; r += n
    }

    /// `n` bytes of the tag's attributes at `r`: kept unless the tag's attributes are being dropped.
    @inline(__always)
    private func attributeBytes(_ p: UnsafeMutablePointer<UInt8>, _ w: inout Int, _ r: inout Int, _ n: Int) {
        if droppingTag { r += n } else { move(p, &w, &r, n) }
    }

    /// The index of the first `byte` in `p[from..<count]`, or `count`.
    @inline(__always)
    private func find(_ byte: UInt8, _ p: UnsafeMutablePointer<UInt8>, _ from: Int, _ count: Int) -> Int {
        guard let hit = memchr(p + from, Int32(byte), count - from) else { return count }
        return hit.assumingMemoryBound(to: UInt8.self) - p
    }

    /// Starts an attribute at the current byte (not consumed): past the limit, the tag's remaining attributes go.
    private mutating func startAttribute(bogus: Bool) {
        attributes += 1
        attributeLength = 0
        if attributes > Self.maxAttributes {
            if !droppingTag { droppingTag = true; elementsCut += 1 }
            attributesDropped += 1
        }
        state = bogus ? .bogusAttribute : .attributeName
    }

    /// The `>` that ends a start tag (always kept); `<script>` and `<style>` then hold raw text unless the tag
    /// closed itself: `/>` where an attribute could start, its `/` kept (in `<script src=a/>` the `/` is the
    /// value's, as libxml2 and browsers read it).
    private mutating func endStartTag(_ p: UnsafeMutablePointer<UInt8>, _ w: inout Int, _ r: inout Int, selfClosing: Bool) {
        p[w] = p[r]
        w += 1; r += 1
        state = .data
        guard !selfClosing else { return }
        if nameLength == 6, nameCode == Self.scriptCode {
            rawName = Self.script; state = .rawText
        } else if nameLength == 5, nameCode == Self.styleCode {
            rawName = Self.style; state = .rawText
        }
    }

    /// Value bytes from `r` up to `end`: kept up to `maxValueBytes` (cut at a character boundary), dropped past it.
    private mutating func valueBytes(_ p: UnsafeMutablePointer<UInt8>, _ w: inout Int, _ r: inout Int, upTo end: Int) {
        var n = end - r
        guard n > 0 else { return }
        if !droppingValue, valueLength + n > Self.maxValueBytes {
            var cut = r + max(0, Self.maxValueBytes - valueLength)
            while cut > r, p[cut] & 0xC0 == 0x80 { cut -= 1 }
            // A character whose first bytes came in the previous piece is finished rather than split.
            if cut == r { while cut < end, p[cut] & 0xC0 == 0x80 { cut += 1 } }
            let kept = cut - r
            attributeBytes(p, &w, &r, kept)
            valueLength += kept
            n -= kept
            droppingValue = true
            valuesCut += 1
        }
        if droppingValue {
            valueBytesDropped += n
            r += n
        } else {
            attributeBytes(p, &w, &r, n)
            valueLength += n
        }
    }

    /// What was cut, as the scan result reports it.
    var truncations: [PageScanResult.Truncation] {
        var out: [PageScanResult.Truncation] = []
        if elementsCut > 0 {
            out.append(.init(kind: .attributes, count: elementsCut, limit: Self.maxAttributes, dropped: attributesDropped))
        }
        if valuesCut > 0 {
            out.append(.init(kind: .attributeValue, count: valuesCut, limit: Self.maxValueBytes, dropped: valueBytesDropped))
        }
        return out
    }
}

/// The fast path's byte classes, one table lookup per byte (the same sets as the functions below).
private let blank: UInt8 = 1, nameStart: UInt8 = 2, nameByte: UInt8 = 4, valueEnd: UInt8 = 8
nonisolated(unsafe) private let fastClasses: UnsafePointer<UInt8> = { // written once, then only read
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for i in 0..<256 {
        let c = UInt8(i)
        table[i] =
            (isBlank(c) ? blank : 0) | (isNameStart(c) ? nameStart : 0) | (isNameByte(c) ? nameByte : 0)
            | (isBlank(c) || c == UInt8(ascii: ">") ? valueEnd : 0)
    }
    return UnsafePointer(table)
}()

/// The attributes the fast path keeps of each collected element besides its event handlers (those
/// `Tag.readAttributes` lists), as a flat table built once: elements are found by their names packed as
/// `packing` packs them (the lower-cased bytes, first byte highest), attribute names packed the same way in
/// two words (none kept is longer than 16 bytes). No array is retained or released per tag.
private struct KeptAttributes {
    /// An element's list: `count` names from `first` in `names`; `count` -1 keeps every attribute.
    typealias List = (first: Int, count: Int)
    /// The collected elements, by the length of their names: those of length n are `elements[bucket[n]..<bucket[n + 1]]`
    /// (most elements, `div`, `span`, `p`, are passed over at one or two comparisons).
    private let elements: UnsafeMutablePointer<(code: UInt64, list: List)>
    private let bucket: UnsafeMutablePointer<Int>
    private let names: UnsafeMutablePointer<(low: UInt64, high: UInt64, length: Int)>

    init() {
        var elements: [(code: UInt64, length: Int, list: List)] = []
        var names: [(low: UInt64, high: UInt64, length: Int)] = []
        for name in Tag.collectedNames {
            let tag = name.withCString { Tag(UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self)) }
            let bytes = Array(name.utf8)
            precondition(bytes.count <= 8, "a collected element's name is longer than the fast path packs")
            guard let read = tag.readAttributes else {
                elements.append((Self.pack(bytes[...]).low, bytes.count, (0, -1)))
                continue
            }
            elements.append((Self.pack(bytes[...]).low, bytes.count, (names.count, read.count)))
            for attribute in read {
                let a = Array(attribute.utf8)
                precondition(a.count <= 16, "a read attribute's name is longer than the fast path packs")
                let packed = Self.pack(a[...])
                names.append((packed.low, packed.high, a.count))
            }
        }
        precondition(
            Self.pack("script".utf8).low == MarkupLimiter.scriptCode && Self.pack("style".utf8).low == MarkupLimiter.styleCode)
        elements.sort { $0.length < $1.length }
        self.elements = .allocate(capacity: elements.count)
        self.elements.initialize(from: elements.map { ($0.code, $0.list) }, count: elements.count)
        bucket = .allocate(capacity: 10)
        for n in 0...9 { bucket[n] = elements.firstIndex { $0.length >= n } ?? elements.count }
        self.names = .allocate(capacity: max(1, names.count))
        self.names.initialize(from: names, count: names.count)
    }

    /// The first 8 bytes, `| 0x20`, in `low`, the next 8 in `high`.
    private static func pack<C: Collection>(_ bytes: C) -> (low: UInt64, high: UInt64) where C.Element == UInt8 {
        var low: UInt64 = 0, high: UInt64 = 0
        for (k, b) in bytes.enumerated() {
            if k < 8 { low = packing(low, b) } else { high = packing(high, b) }
        }
        return (low, high)
    }

    /// The list of the element packed as `code`; an element the scan does not collect gets an empty one (only its
    /// handlers are kept).
    @inline(__always)
    func lookUp(_ code: UInt64, _ length: Int) -> List {
        guard length <= 8 else { return (0, 0) }
        var k = bucket[length]
        while k < bucket[length + 1] {
            if elements[k].code == code { return elements[k].list }
            k += 1
        }
        return (0, 0)
    }

    /// Whether the attribute named by `length` bytes at `name` is in `list` (ASCII letters in either case).
    @inline(__always)
    func contains(_ list: List, _ name: UnsafeMutablePointer<UInt8>, _ length: Int) -> Bool {
        if list.count <= 0 || length > 16 { return false }
        let packed = Self.pack(UnsafeBufferPointer(start: name, count: length))
        for k in list.first..<(list.first + list.count) {
            let n = names[k]
            if n.length == length && n.low == packed.low && n.high == packed.high { return true }
        }
        return false
    }
}
nonisolated(unsafe) private let keptAttributes = KeptAttributes() // built once, then only read

/// Whether any of the `count` bytes at `p` is past ASCII (eight at a time).
@inline(__always) private func holdsNonASCII(_ p: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    while i + 8 <= count {
        if UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
        i += 8
    }
    while i < count {
        if p[i] >= 0x80 { return true }
        i += 1
    }
    return false
}

/// How the limiter packs a name into a word, one byte at a time: the byte `| 0x20` (ASCII letters lower-cased) goes
/// in at the low end, so the first byte ends highest. The tag reader and `KeptAttributes` must pack alike, so both
/// call this.
@inline(__always) private func packing(_ code: UInt64, _ byte: UInt8) -> UInt64 { code << 8 | UInt64(byte | 0x20) }
@inline(__always) private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
@inline(__always) private func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
/// What libxml2's HTML name reader accepts first: a letter, `_`, `:` or `.`.
@inline(__always) private func isNameStart(_ c: UInt8) -> Bool {
    isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
}
/// And after that: letters, digits, `:`, `-`, `_`, `.`.
@inline(__always) private func isNameByte(_ c: UInt8) -> Bool {
    isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")
}

/// A refresh value before URL parsing: the delay and the raw URL string (nil: the document itself).
struct RefreshContent: Equatable {
    var delay: Int
    var url: String?

    /// Follows the steps literally, over Unicode scalars. Nil on the steps' "return" (failure).
    init?(_ input: String) {
        let s = Array(input.unicodeScalars)
        var i = 0
        func isWhitespace(_ c: Unicode.Scalar) -> Bool {
            c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
        }
        func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
        func skipWhitespace() { while i < s.count, isWhitespace(s[i]) { i += 1 } }

        skipWhitespace()
        // Collect the integer part; an empty one is allowed only before a `.` (".9" is 0).
        var time = 0
        let digitsStart = i
        while i < s.count, isDigit(s[i]) {
            let (m, o1) = time.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(s[i].value - 0x30))
            time = (o1 || o2) ? Int.max : a // absurd delays saturate rather than wrap
            i += 1
        }
        if i == digitsStart {
            guard i < s.count, s[i] == "." else { return nil }
        }
        // Digits and dots after the integer part are ignored ("1.9..5." is 1).
        while i < s.count, isDigit(s[i]) || s[i] == "." { i += 1 }
        delay = time
        url = nil
        if i < s.count {
            guard isWhitespace(s[i]) || s[i] == ";" || s[i] == "," else { return nil }
            skipWhitespace()
            if i < s.count, s[i] == ";" || s[i] == "," { i += 1 }
            skipWhitespace()
        }
        guard i < s.count else { return }
        var urlStart = i // "Let urlString be the code points from position to the end"
        skipQuotes: do {
            guard s[i] == "U" || s[i] == "u" else { break skipQuotes }
            i += 1
            guard i < s.count, s[i] == "R" || s[i] == "r" else { i = urlStart; url = Self.string(s[urlStart...]); return }
            i += 1
            guard i < s.count, s[i] == "L" || s[i] == "l" else { i = urlStart; url = Self.string(s[urlStart...]); return }
            i += 1
            skipWhitespace()
            guard i < s.count, s[i] == "=" else { url = Self.string(s[urlStart...]); return }
            i += 1
            skipWhitespace()
        }
        // Skip quotes: a leading ' or " ends the URL at its next occurrence.
        var quote: Unicode.Scalar?
        if i < s.count, s[i] == "'" || s[i] == "\"" { quote = s[i]; i += 1 }
        urlStart = i
        var end = s.count
        if let quote, let q = s[urlStart...].firstIndex(of: quote) { end = q }
        url = Self.string(s[urlStart..<end])
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(String.UnicodeScalarView(scalars))
    }
}

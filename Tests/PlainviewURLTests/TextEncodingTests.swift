import Testing
import PlainviewURL

/// Form submissions in the page's encoding, as browsers submit them (expected bytes from Python's codecs and
/// the Encoding Standard's windows-1252 index).
@Suite struct TextEncodingTests {
    static let labels: [(String, String?)] = [
        ("UTF-8", "utf-8"), (" utf8 ", "utf-8"), ("utf-16le", "utf-8"),
        ("ISO-8859-1", "windows-1252"), ("latin1", "windows-1252"), ("us-ascii", "windows-1252"),
        ("Windows-1252", "windows-1252"),
        ("Shift_JIS", "shift_jis"), ("ISO-8859-2", "iso-8859-2"),
        ("no-such-charset", nil), ("", nil), ("utf 8", nil),
    ]

    @Test(arguments: labels.indices)
    func labelsNameTheirEncoding(_ i: Int) {
        let (label, name) = Self.labels[i]
        #expect(TextEncoding(label: label)?.name == name, "\(label)")
    }

    static let forms: [(String, String, String)] = [
        ("windows-1252", "Bjørn Ås", "Bj%F8rn+%C5s"),
        ("windows-1252", "5 €", "5+%80"),
        ("windows-1252", "日本", "%26%2326085%3B%26%2326412%3B"), // not in windows-1252: &#N;
        ("shift_jis", "日本", "%93%FA%96%7B"),
        ("iso-8859-2", "Łódź", "%A3%F3d%BC"),
        ("utf-8", "Bjørn", "Bj%C3%B8rn"),
        ("windows-1252", "a+b=c&d*-._~", "a%2Bb%3Dc%26d*-._%7E"),
    ]

    @Test(arguments: forms.indices)
    func formFieldsAreEncodedInThePagesEncoding(_ i: Int) throws {
        let (label, value, expected) = Self.forms[i]
        let encoding = try #require(TextEncoding(label: label))
        #expect(PercentEncoding.encodeForm(value, encoding: encoding) == expected, "\(label) \(value)")
    }
}

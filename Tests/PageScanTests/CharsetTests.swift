import Testing
import PageScan

/// The page's encoding, which its forms are submitted in: the header's charset wins over the page's own
/// declaration (as in browsers); the first `<meta>` declaration counts; Latin-1 labels are windows-1252.
@Suite struct CharsetTests {
    static let rows: [(String?, String, String?)] = [
        ("text/html; charset=\"ISO-8859-1\"", "", "windows-1252"),
        ("text/html; charset=utf-8", "<meta charset=windows-1252>", "utf-8"),
        (nil, "<meta charset=Shift_JIS><meta charset=utf-8>", "shift_jis"),
        (nil, "<meta http-equiv=Content-Type content='text/html; charset=windows-1252'>", "windows-1252"),
        (nil, "<p>no declaration</p>", nil),
        (nil, "<meta charset=no-such-thing>", nil),
    ]

    @Test(arguments: rows.indices)
    func charset(_ i: Int) throws {
        let (header, html, expected) = Self.rows[i]
        let r = try PageScanner.scan(Array(html.utf8), contentType: header, documentURL: "https://shop.example/")
        #expect(r.charset == expected, "\(header ?? "-") \(html)")
    }
}

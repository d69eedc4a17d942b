struct Token {
    var kind: TokenKind
    /// Byte range in the source; for strings and templates the inner range (without quotes). Stored as 32-bit
    /// offsets (a script unit is at most `ScriptUnit.maxBytes`), so a token takes 16 bytes, not 32.
    private var start32: UInt32
    private var end32: UInt32
    /// For `(`, `[`, `{` and their closers: the index of the matching bracket token, else -1.
    var partner: Int32 = -1

    init(kind: TokenKind, start: Int, end: Int) {
        self.kind = kind
        start32 = UInt32(truncatingIfNeeded: start)
        end32 = UInt32(truncatingIfNeeded: end)
    }

    var start: Int { Int(start32) }
    var end: Int { Int(end32) }
}

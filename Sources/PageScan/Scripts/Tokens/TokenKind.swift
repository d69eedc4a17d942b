enum TokenKind: UInt8 { case ident, string, number, punct, template, regex }

// How a tap step's text is compared with a page's labels.

enum LooseText {
    /// Text compared loosely: lower case, runs of white space as one space, trimmed.
    static func of(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

// SEAM until the goodlist helper's loader (GoodlistFiles) lands; then PolicyFile calls GoodlistFiles and this file goes: reads goodlist files (the SDK `good_redirects` format and
// Plainview's own: one host pattern per line, `#` comments) into entries with file and line.
import Foundation
import NavigationPolicy

enum GoodlistSeam {
    static func isPattern(_ s: String) -> Bool {
        var host = s
        if host.hasPrefix("**.") { host.removeFirst(3) } else if host.hasPrefix("*.") { host.removeFirst(2) }
        return !host.contains("*") && HostName.normalize(host) != nil
    }

    static func load(path: String, displayName: String, isDirectory: Bool) throws -> [GoodlistEntry] {
        if isDirectory {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            var out: [GoodlistEntry] = []
            for name in names where !name.hasPrefix(".") && (name.hasSuffix(".goodlist") || name.hasSuffix(".txt") || !name.contains(".")) {
                out += try load(path: (path as NSString).appendingPathComponent(name),
                                displayName: (displayName as NSString).appendingPathComponent(name), isDirectory: false)
            }
            return out
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: displayName, "cannot be read as UTF-8 text")
        }
        var out: [GoodlistEntry] = []
        for (i, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = fields.first else { continue }
            let pattern = String(first)
            guard isPattern(pattern) else {
                throw ConfigError(file: displayName, line: i + 1, "expected a host pattern (host, *.host, **.host), found '\(pattern)'")
            }
            out.append(GoodlistEntry(pattern: pattern.lowercased(), file: displayName, line: i + 1))
        }
        return out
    }
}

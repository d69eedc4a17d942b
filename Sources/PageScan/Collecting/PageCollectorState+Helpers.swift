// The collector's pure helpers: resolving links' hrefs in one pass, and reading `type` attributes.
import PlainviewURL

extension PageCollectorState {
    /// Resolves each link's raw href in place, dropping those that do not resolve (the links' order kept).
    static func resolveLinks(
        _ links: inout [PageScanResult.Link], hrefs: [UInt8], ends: [Int],
        _ resolver: WebURL.Resolver, defaultTarget: String?
    ) {
        var kept = 0
        hrefs.withUnsafeBufferPointer { all in
            var start = 0
            for i in links.indices {
                let end = ends[i]
                defer { start = end }
                guard let url = resolver.href(utf8: UnsafeBufferPointer(rebasing: all[start..<end])) else { continue }
                if kept != i { links.swapAt(kept, i) }
                links[kept].url = url
                if links[kept].target == nil { links[kept].target = defaultTarget }
                kept += 1
            }
        }
        links.removeLast(links.count - kept)
    }

    /// The button kinds of `<input type>` / `<button type>`; nil for other input types.
    static func buttonKind(_ type: String) -> PageScanResult.Button.Kind? {
        switch type.trimmingASCIIWhitespace().lowercased() {
        case "submit": .submit
        case "image": .image
        case "button": .button
        case "reset": .reset
        default: nil
        }
    }

    static func isJavaScriptType(_ type: String) -> Bool {
        let t = type.trimmingASCIIWhitespace().lowercased()
        if t.isEmpty || t == "module" { return true }
        let essence = t.split(separator: ";").first.map { $0.trimmingASCIIWhitespace() } ?? t
        return [
            "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
            "application/ecmascript", "text/jscript", "text/livescript", "text/x-javascript",
            "text/x-ecmascript", "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
            "text/javascript1.3", "text/javascript1.4", "text/javascript1.5",
        ].contains(essence)
    }
}

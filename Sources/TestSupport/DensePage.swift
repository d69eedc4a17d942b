// Generated pages made of one kind of content, as densely as markup allows: the inputs that bound what
// `plainview extract` may cost (the CLI tests at a few MB, the bench at 60 MB).

/// One kind of dense page.
public enum DensePage: String, CaseIterable, Sendable {
    case navigationsInOneScript, navigationsInManyScripts, links, forms, fields, frames, buttons, options, hooks
    case formSubmissions, nestedElements, nestedLinks, inlineText, textarea, metaRefreshes
    /// `<b>` nested as deep as the page allows: the shortest start tag, so the most open elements per byte.
    case nestedInline
    /// Half the page `<b>`, the other half end tags of an element never opened (`</i>`), each of which makes the
    /// parser search its stack of open elements.
    case strayEndTags
    /// A bundled library: one statement (a call wrapping an array of module functions) as long as the page.
    case bundledScript
    /// Many tiny named functions, each navigating, one called at the end.
    case namedFunctions
    /// Many small inline scripts with no navigation, then one with.
    case smallScripts
    /// One statement of nothing but tokens (`1+1+…`), as many as bytes allow, after a navigation.
    case longExpression

    /// The page, about `bytes` long.
    public func page(bytes: Int) -> [UInt8] {
        var out = Array("<html><body>".utf8)
        func fill(_ item: (Int) -> String) {
            var i = 0
            while out.count < bytes { out += Array(item(i).utf8); i += 1 }
        }
        func wrap(_ open: String, _ close: String, _ item: (Int) -> String) {
            out += Array(open.utf8); fill(item); out += Array(close.utf8)
        }
        switch self {
        case .navigationsInOneScript: wrap("<script>", "</script>") { "location.href = \"/p?o=\($0)\";\n" }
        case .navigationsInManyScripts: fill { "<script>location.href = \"/p?o=\($0)\";</script>\n" }
        case .links: fill { "<a href=\"/p?o=\($0)\">x</a>\n" }
        case .forms: fill { "<form action=\"/f\($0)\"><input name=a value=\($0)></form>\n" }
        case .fields: wrap("<form action=/f>", "</form>") { "<input name=a\($0) value=\($0)>\n" }
        case .frames: fill { "<iframe src=\"/f\($0)\"></iframe>\n" }
        case .buttons: fill { "<button onclick=\"location.href='/b\($0)'\">b</button>\n" }
        case .options: wrap("<form><select name=s multiple>", "</select></form>") { "<option selected>\($0)</option>\n" }
        case .hooks: wrap("<script>", "</script>") { "webkit.messageHandlers.h.postMessage(\($0));\n" }
        case .formSubmissions: wrap("<form id=f></form><script>", "</script>") { _ in "f.submit();\n" }
        case .nestedElements: fill { _ in "<div>" }
        case .nestedLinks: fill { _ in "<b><a href=/x>" }
        case .nestedInline: fill { _ in "<b>" }
        case .strayEndTags:
            while out.count < bytes / 2 { out += Array("<b>".utf8) }
            fill { _ in "</i>" }
        case .inlineText: wrap("<p>", "</p>") { _ in "lorem ipsum " }
        case .textarea: wrap("<form><textarea name=t>", "</textarea></form>") { _ in "lorem ipsum " }
        case .metaRefreshes: fill { "<meta http-equiv=refresh content=\"5;url=/r\($0)\">\n" }
        case .bundledScript:
            wrap(
                "<script>(function(modules){function req(i){var m={exports:{}};modules[i](m,m.exports,req);return m.exports}req(0)})([",
                "function(e){}]);</script>"
            ) {
                "function(e,t,n){\"use strict\";var r=n(\($0 + 1)),o=n(\($0 + 2));function a(x,y){return x&&y?r.f(x,y):o.g(x)}"
                    + "e.exports={run:a,name:\"m\($0)\",go:function(){window.location.href=\"/m\($0)\"}}},\n"
            }
        case .namedFunctions: wrap("<script>", "f1();</script>") { "function f\($0)(){location.href=\"/p\($0)\"}\n" }
        case .smallScripts:
            fill { "<script>var a\($0) = \($0);</script>\n" }
            out += Array("<script>location.href = '/x'</script>".utf8)
        case .longExpression: wrap("<script>location.href = '/x'; var x = ", "1</script>") { _ in "1+" }
        }
        return out + Array("</body></html>".utf8)
    }
}

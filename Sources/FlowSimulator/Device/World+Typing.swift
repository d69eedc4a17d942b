// The user typing into a form field (`type: {field, text}`): the card number, the expiry, the one-time code. The
// field is found by its name on the page in front or one of its frames; the model keeps the text as the field's
// value, so the form posts it, and in engine mode the engine types it into its own DOM.
extension World {
    /// The pages of `tab` (main page first, then its frames: nil, 0, 1 …) whose forms have a field named `field`.
    func pagesWithField(_ tab: Tab, _ field: String) -> [Int?] {
        tappablePages(tab).filter { page, _ in page.scan.forms.contains { $0.fields.contains { $0.name == field } } }
            .map(\.1)
    }

    /// Types `text` into the field named `field` on the page in front (the first page holding one: the main page,
    /// then its frames in order); when none has it, the run ends `stuck` naming the fields there are.
    func typeInto(_ field: String, _ text: String, step n: Int) {
        guard let (shown, page) = pageInFront(for: .type(field: field, text: text), n) else { return }
        var tab = shown
        guard let place = pagesWithField(tab, field).first else {
            let names = tappablePages(tab).flatMap { page, _ in page.scan.forms.flatMap { $0.fields.map(\.name) } }
            var seen: Set<String> = []
            let fields = names.filter { !$0.isEmpty && seen.insert($0).inserted }
            finish(
                .stuck,
                reason: "step \(n) (type into '\(field)'): no form field of that name on \(page.url); "
                    + (fields.isEmpty ? "it has no form fields" : "its fields: " + fields.joined(separator: ", ")))
            return
        }
        func fill(_ p: inout LoadedPage) {
            for f in p.scan.forms.indices {
                for i in p.scan.forms[f].fields.indices where p.scan.forms[f].fields[i].name == field {
                    p.scan.forms[f].fields[i].value = text
                }
            }
        }
        if let i = place {
            if var framePage = tab.frames[i] {
                fill(&framePage)
                tab.frames[i] = framePage
            }
        } else if var main = tab.page {
            fill(&main)
            tab.page = main
        }
        if front == .host { web = tab } else { browser = tab }
        if front == .host, let engine, !engine.type(field, text: text, frameIndex: place) {
            finish(.stuck, reason: "step \(n) (type into '\(field)'): \(engineName) has no field named '\(field)' on \(page.url)")
        }
    }
}

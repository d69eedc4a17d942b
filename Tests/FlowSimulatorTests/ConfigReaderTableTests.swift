// The one config reader (PlainviewConfig.ConfigNode) through every file kind: each mistake is a ConfigError
// naming the file, the line and the key path, with the same sentence whatever the file kind.
import FlowSimulator
import Foundation
import PlainviewConfig
import Testing
import FlowImport

@Suite struct ConfigReaderTableTests {
    enum Kind: String, Sendable { case policy, environment, flow, redaction }

    struct Row: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var mistake: String
        var text: String
        var line: Int?
        var key: String?
        var message: String
        var testDescription: String { "\(kind.rawValue): \(mistake)" }
    }

    static let policy = """
        paymentUrl: https://shop.example.com/pay
        completeUrl: https://shop.example.com/complete
        cancelUrl: https://shop.example.com/cancel
        """
    static let inlinePolicy =
        "policy: {paymentUrl: https://shop.example.com/pay, completeUrl: https://shop.example.com/complete, cancelUrl: https://shop.example.com/cancel}\n"

    static let rows: [Row] = [
        // Policy files.
        Row(
            kind: .policy, mistake: "unknown key", text: policy + "\nredirect: webview", line: 4, key: "redirect",
            message: "unknown key 'redirect'; expected one of platform, paymentUrl"),
        Row(
            kind: .policy, mistake: "wrong type", text: "platform: [ios]\n" + policy, line: 1, key: "platform",
            message: "expected a string, found a list"),
        Row(
            kind: .policy, mistake: "duplicate key", text: policy + "\ncancelUrl: https://shop.example.com/c2", line: 4,
            key: "cancelUrl",
            message: "duplicate key"),
        Row(
            kind: .policy, mistake: "missing required key",
            text: "paymentUrl: https://shop.example.com/pay\ncompleteUrl: https://shop.example.com/c\n",
            line: 1, key: "cancelUrl", message: "missing required key 'cancelUrl' (expected a string)"),
        Row(
            kind: .policy, mistake: "invalid YAML", text: policy + "\nallowedHosts: [a, b\n", line: 5, key: nil,
            message: "invalid YAML/JSON: "),
        Row(
            kind: .policy, mistake: "invalid JSON",
            text: "{\"paymentUrl\": \"https://shop.example.com/pay\",\n\"completeUrl\" \"x\"}", line: 2, key: nil,
            message: "invalid YAML/JSON: "),
        // Environment files.
        Row(
            kind: .environment, mistake: "unknown key", text: "apps:\n  - name: X\n    colour: red\n", line: 3,
            key: "apps[0].colour",
            message: "unknown key 'colour'; expected one of name, schemes"),
        Row(
            kind: .environment, mistake: "wrong type", text: "apps:\n  - name: X\n    universalLinks: {host: x.example}\n",
            line: 3,
            key: "apps[0].universalLinks", message: "expected a list, found a mapping"),
        Row(
            kind: .environment, mistake: "duplicate key", text: "apps:\n  - name: X\n    name: Y\n", line: 3, key: "apps[0].name",
            message: "duplicate key"),
        Row(
            kind: .environment, mistake: "missing required key",
            text: "apps:\n  - name: X\n    appLinks:\n      - paths: ['/*']\n", line: 4,
            key: "apps[0].appLinks[0].host", message: "missing required key 'host'"),
        Row(
            kind: .environment, mistake: "invalid YAML", text: "apps:\n  - name: X\n    schemes: [x\n", line: 4, key: nil,
            message: "invalid YAML/JSON: "),
        // Flow files (and the policy, environment and app behaviour written inline in them).
        Row(
            kind: .flow, mistake: "unknown key", text: inlinePolicy + "pages:\n  - url: https://a.example/\n    colour: red\n",
            line: 4,
            key: "pages[0].colour", message: "unknown key 'colour'; expected one of url, method"),
        Row(
            kind: .flow, mistake: "wrong type", text: inlinePolicy + "limits: {steps: many}\n", line: 2, key: "limits.steps",
            message: "expected a whole number, found the scalar 'many'"),
        Row(
            kind: .flow, mistake: "duplicate key", text: inlinePolicy + "name: a\nname: b\n", line: 3, key: "name",
            message: "duplicate key"),
        Row(
            kind: .flow, mistake: "missing required key", text: inlinePolicy + "expect:\n  branches:\n    - outcome: stuck\n",
            line: 4,
            key: "expect.branches[0].when", message: "missing required key 'when'"),
        Row(
            kind: .flow, mistake: "invalid YAML", text: inlinePolicy + "pages: [\n", line: 3, key: nil,
            message: "invalid YAML/JSON: "),
        Row(
            kind: .flow, mistake: "inline policy: missing required key",
            text: "policy: {paymentUrl: https://shop.example.com/pay}\n", line: 1,
            key: "policy.completeUrl", message: "missing required key 'completeUrl'"),
        Row(
            kind: .flow, mistake: "inline policy: unknown key",
            text: "policy:\n  paymentUrl: https://shop.example.com/pay\n  complete: x\n", line: 3,
            key: "policy.complete", message: "unknown key 'complete'"),
        Row(
            kind: .flow, mistake: "inline environment: wrong type", text: inlinePolicy + "environment:\n  apps: {name: A}\n",
            line: 3,
            key: "environment.apps", message: "expected a list, found a mapping"),
        Row(
            kind: .flow, mistake: "app behaviour: wrong type",
            text: inlinePolicy + "environment:\n  apps:\n    - name: A\n      behaviour: {host: maybe}\n", line: 5,
            key: "environment.apps[0].behaviour.host", message: "expected true or false, got 'maybe'"),
        Row(
            kind: .flow, mistake: "helpers: missing required key", text: inlinePolicy + "helpers: {root: /x/}\n", line: 2,
            key: "helpers.publicUrl", message: "missing required key 'publicUrl'"),
        // Redaction files (no key is required).
        Row(
            kind: .redaction, mistake: "unknown key", text: "names: [a]\nnmes: [x]\n", line: 2, key: "nmes",
            message: "unknown key 'nmes'; expected one of cards, cookies"),
        Row(
            kind: .redaction, mistake: "wrong type", text: "cards: [x]\n", line: 1, key: "cards",
            message: "expected true or false, found a list"),
        Row(
            kind: .redaction, mistake: "wrong type in a list", text: "keep:\n  - MD\n  - 42\n", line: 3, key: "keep[1]",
            message: "expected a string, found the scalar '42'"),
        Row(
            kind: .flow, mistake: "duplicate key, nested and quoted",
            text: inlinePolicy + "pages:\n  - url: https://a.example/\n    \"status\": 200\n    status: 201\n",
            line: 5, key: "pages[0].status", message: "duplicate key"),
        Row(
            kind: .flow, mistake: "duplicate key in JSON",
            text: "{\"policy\": {\"paymentUrl\": \"https://a.example/\",\n \"paymentUrl\": \"https://b.example/\"}}",
            line: 2, key: "policy.paymentUrl", message: "duplicate key"),
        Row(
            kind: .redaction, mistake: "duplicate key", text: "names: [a]\nnames: [b]\n", line: 2, key: "names",
            message: "duplicate key"),
        Row(kind: .redaction, mistake: "invalid YAML", text: "names: [a\n", line: 2, key: nil, message: "invalid YAML/JSON: "),
    ]

    static let file: [Kind: String] = [.policy: "p.yaml", .environment: "e.yaml", .flow: "flow.yaml", .redaction: "r.yaml"]

    static func load(_ row: Row) throws(ConfigError) {
        let name = file[row.kind]!
        switch row.kind {
        case .policy: _ = try PolicyFile.parse(row.text, file: name, baseDirectory: "/nonexistent")
        case .environment: _ = try EnvironmentFile.parse(row.text, file: name, baseDirectory: "/nonexistent")
        case .flow: _ = try FlowLoader.parse(row.text, file: name, folder: "/nonexistent")
        case .redaction: _ = try RedactionConfig.parse(row.text, file: name)
        }
    }

    @Test(arguments: rows)
    func everyMistakeNamesFileLineAndKey(_ row: Row) {
        let error = #expect(throws: ConfigError.self) { try Self.load(row) }
        guard let error else { return }
        #expect(error.file == Self.file[row.kind], "\(error)")
        #expect(error.line == row.line, "\(error)")
        #expect(error.key == row.key, "\(error)")
        #expect(
            error.message.hasPrefix(row.message) || (row.message.hasPrefix("missing") && error.message.hasPrefix(row.message)),
            "\(error)")
        // The printed form leads with file:line: key:, as the CLI prints it after `error: `.
        var place = error.file
        if let line = row.line { place += ":\(line)" }
        if let key = row.key { place += ": \(key)" }
        #expect(error.description.hasPrefix(place + ": "), "\(error)")
    }

    /// The same value means the same thing in every file kind: one reader, one set of sentences.
    @Test func theSameMistakeReadsTheSameInEveryKind() {
        let policyError = #expect(throws: ConfigError.self) { try PolicyFile.parse(Self.policy + "\nx: 1", file: "p.yaml") }
        let flowError = #expect(throws: ConfigError.self) {
            try FlowLoader.parse(Self.inlinePolicy + "x: 1\n", file: "p.yaml", folder: "/nonexistent")
        }
        let redactionError = #expect(throws: ConfigError.self) { try RedactionConfig.parse("x: 1\n", file: "p.yaml") }
        for e in [policyError, flowError, redactionError] {
            #expect(e?.message.hasPrefix("unknown key 'x'; expected one of ") == true, "\(String(describing: e))")
        }
    }

    @Test func emptyDocuments() {
        #expect(throws: ConfigError(file: "p.yaml", "is empty, expected a mapping of keys")) {
            try PolicyFile.parse("# nothing\n", file: "p.yaml")
        }
        #expect(throws: ConfigError(file: "flow.yaml", "is empty, expected a mapping of keys")) {
            try FlowLoader.parse("", file: "flow.yaml", folder: "/nonexistent")
        }
        // An empty redaction file means the defaults.
        #expect(throws: Never.self) { try RedactionConfig.parse("# defaults\n", file: "r.yaml") }
    }
}

import Foundation
@testable import FlowSimulator
import NavigationPolicy
import PlainviewConfig
import Testing
import TestSupport
import PlainviewSupport

/// The JSON Schemas in schemas/ (what editors check files with) and the strict readers (what Plainview checks
/// files with) must accept the same keys, and every shipped example must name its schema and pass it.
@Suite("JSON Schemas")
struct SchemaTests {
    static let folder = Project.path("schemas")

    /// The schemas, read with the config reader (JSON is YAML).
    struct Schemas {
        var documents: [String: ConfigNode] = [:]

        init() throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: SchemaTests.folder.path)
            where name.hasSuffix(".schema.json") {
                documents[name] = try ConfigNode.load(
                    path: SchemaTests.folder.appendingPathComponent(name).path, displayName: name)
            }
        }

        func field(_ node: ConfigNode, _ key: String) -> ConfigNode? {
            (try? node.mapping())?.first { $0.key == key }?.value
        }

        /// `#/$defs/x`, `other.schema.json` or `other.schema.json#/$defs/x`, from a schema in `file`.
        func resolve(_ ref: String, from file: String) -> (String, ConfigNode)? {
            let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let target = parts[0].isEmpty ? file : parts[0]
            guard var node = documents[target] else { return nil }
            if parts.count > 1 {
                for step in parts[1].split(separator: "/") {
                    guard let next = field(node, String(step)) else { return nil }
                    node = next
                }
            }
            return (target, node)
        }

        /// The closed mapping schemas (those listing `properties`) a value may be, through `$ref`, `oneOf`,
        /// `anyOf`, `allOf`, `items` and `additionalProperties`.
        func mappings(_ node: ConfigNode, in file: String, depth: Int = 0) -> [(String, ConfigNode)] {
            guard depth < 32, node.isMapping else { return [] }
            var out: [(String, ConfigNode)] = []
            if field(node, "properties") != nil { out.append((file, node)) }
            if let ref = try? field(node, "$ref")?.string(), let (f, target) = resolve(ref, from: file) {
                out += mappings(target, in: f, depth: depth + 1)
            }
            for key in ["oneOf", "anyOf", "allOf"] {
                for item in (try? field(node, key)?.sequence()) ?? [] { out += mappings(item, in: file, depth: depth + 1) }
            }
            for key in ["items", "additionalProperties"] {
                if let sub = field(node, key) { out += mappings(sub, in: file, depth: depth + 1) }
            }
            return out
        }

        /// Where the schema under `root` and the reader's `keys` differ, one line each (empty: they agree).
        func differences(_ keys: ConfigKeys, _ schemaFile: String) -> [String] {
            guard let root = documents[schemaFile] else { return ["\(schemaFile): no such schema"] }
            return compare(keys, mappings(root, in: schemaFile), path: schemaFile)
        }

        private func compare(_ keys: ConfigKeys, _ schemas: [(String, ConfigNode)], path: String) -> [String] {
            guard !schemas.isEmpty else { return ["\(path): the reader reads a mapping here, the schema has none"] }
            var out: [String] = []
            for (file, schema) in schemas {
                let properties = (try? field(schema, "properties")?.mapping()) ?? []
                let names = Set(properties.map { $0.key })
                if names != Set(keys.keys) {
                    let onlySchema = names.subtracting(keys.keys).sorted(),
                        onlyReader = Set(keys.keys).subtracting(names).sorted()
                    out.append(
                        "\(path): only the schema has [\(onlySchema.joined(separator: ", "))], only the reader has [\(onlyReader.joined(separator: ", "))]"
                    )
                }
                if (try? field(schema, "additionalProperties")?.bool()) != false {
                    out.append("\(path): the schema does not refuse unknown keys (additionalProperties: false)")
                }
                for (name, value) in properties {
                    let inner = mappings(value, in: file)
                    if let nested = keys.nested[name] {
                        out += compare(nested, inner, path: "\(path).\(name)")
                    } else if !inner.isEmpty {
                        out.append("\(path).\(name): the schema has a mapping with fixed keys here, the reader does not")
                    }
                }
            }
            return out
        }
    }

    static let readers: [(String, ConfigKeys)] = [
        ("policy.schema.json", PolicyFile.shape),
        ("environment.schema.json", FlowLoader.environmentShape),
        ("flow.schema.json", FlowLoader.shape),
    ]

    @Test("each schema accepts exactly the keys its reader accepts, at every level", arguments: readers.map { $0.0 })
    func schemaKeysMatchReader(_ schema: String) throws {
        let schemas = try Schemas()
        let keys = try #require(Self.readers.first { $0.0 == schema }?.1)
        #expect(schemas.differences(keys, schema) == [])
    }

    @Test("a key the reader has and the schema lacks is found, however deep")
    func comparisonFindsDifferences() throws {
        let schemas = try Schemas()
        var policy = PolicyFile.shape
        policy.keys.append("paymentURL")
        #expect(schemas.differences(policy, "policy.schema.json").count == 1)
        var flow = FlowLoader.shape
        flow = flow.replacing(["environment", "apps", "behaviour", "returnTo"], with: ConfigKeys(["url"]))
        #expect(
            schemas.differences(flow, "flow.schema.json").contains { $0.contains("returnTo") && $0.contains("queryParameter") })
        flow = FlowLoader.shape.replacing(["limits"], with: ConfigKeys(["steps"]))
        #expect(!schemas.differences(flow, "flow.schema.json").isEmpty)
    }

    // MARK: the shipped examples

    /// Every YAML/JSON file shipped under Pages/, Examples/host-apps/ and Examples/web-view-rules/, with the schema its
    /// `# yaml-language-server: $schema=` line names.
    static func shippedFiles() throws -> [(file: URL, schema: String)] {
        var out: [(URL, String)] = []
        var files: [URL] = []
        for root in ["Pages", "Examples/host-apps", "Examples/web-view-rules"] {
            let walker = FileManager.default.enumerator(at: Project.path(root), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL { files.append(url) }
        }
        for url in files {
            guard ["yaml", "yml", "json"].contains(url.pathExtension) else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let first = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            let prefix = "# yaml-language-server: $schema="
            guard first.hasPrefix(prefix) else {
                Issue.record("\(url.path) has no '\(prefix)…' first line")
                continue
            }
            let target = url.deletingLastPathComponent().appendingPathComponent(String(first.dropFirst(prefix.count)))
                .standardizedFileURL
            #expect(target.deletingLastPathComponent().path == folder.standardizedFileURL.path, "\(url.path): \(target.path)")
            #expect(FileManager.default.fileExists(atPath: target.path), "\(url.path) names a missing schema \(target.path)")
            out.append((url, target.lastPathComponent))
        }
        return out.sorted { $0.0.path < $1.0.path }
    }

    /// The YAML examples in docs/ and Pages/README.md that start with a `$schema=` line: (where, schema, text).
    static func documentedExamples() throws -> [(String, String, String)] {
        var files = try FileManager.default.contentsOfDirectory(atPath: Project.path("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        files.append("Pages/README.md")
        var out: [(String, String, String)] = []
        for file in files.sorted() {
            let text = try String(contentsOf: Project.path(file), encoding: .utf8)
            for (i, block) in text.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
                guard let body = block.components(separatedBy: "```").first,
                    let first = body.split(separator: "\n").first, first.hasPrefix("# yaml-language-server: $schema="),
                    let schema = first.split(separator: "/").last
                else { continue }
                out.append(("\(file) yaml block \(i + 1)", String(schema), body))
            }
        }
        return out
    }

    @Test("the documented examples of the policy, environment and flow files name their schema")
    func documentedExamplesNameTheirSchema() throws {
        let schemas = Set(try Self.documentedExamples().map { $0.1 })
        #expect(schemas == ["policy.schema.json", "environment.schema.json", "flow.schema.json"])
    }

    @Test("every shipped flow, policy and environment names its schema and the strict reader accepts it")
    func shippedFilesNameSchemaAndLoad() throws {
        let files = try Self.shippedFiles()
        #expect(files.filter { $0.schema == "flow.schema.json" }.count >= 15)
        #expect(files.contains { $0.schema == "policy.schema.json" })
        #expect(files.contains { $0.schema == "environment.schema.json" })
        for (file, schema) in files {
            switch schema {
            case "flow.schema.json": _ = try FlowLoader.load(file: file.path)
            case "policy.schema.json": _ = try PolicyFile.load(path: file.path)
            case "environment.schema.json": _ = try EnvironmentFile.device(path: file.path)
            default: Issue.record("\(file.path): unexpected schema \(schema)")
            }
        }
    }

    /// python3 with the `jsonschema` package (a complete draft 2020-12 validator).
    static let validatorAvailable: Bool = {
        guard let python = Program.find("python3") else { return false }
        return (try? Program.run(python, ["-c", "import jsonschema, referencing"]).status) == 0
    }()

    /// Runs Scripts/validate-schemas.py over `documents` (name, schema, value): its exit status and output.
    static func validate(_ documents: [(String, String, JSONValue)]) throws -> CLIResult {
        let python = try #require(Program.find("python3"), "python3 is not installed; CI installs it with .ci/run")
        let request = JSONValue.object([
            ("schemas", .string(folder.path)),
            (
                "documents",
                .array(documents.map { .object([("name", .string($0.0)), ("schema", .string($0.1)), ("value", $0.2)]) })
            ),
        ])
        return try Program.run(
            python, [Project.path("Scripts/validate-schemas.py").path], stdin: Data(JSONWriter.line(request).utf8))
    }

    @Test(
        "every shipped and documented example is valid against its schema (python jsonschema, draft 2020-12)",
        .enabled(
            if: validatorAvailable || Program.isCI,
            "python3 with the jsonschema package is not installed (pip install jsonschema)"))
    func shippedFilesValidate() throws {
        #expect(Self.validatorAvailable, "CI=true: python3 with jsonschema is required (.ci/run installs it)")
        var documents: [(String, String, JSONValue)] = []
        for (file, schema) in try Self.shippedFiles() {
            documents.append((file.path, schema, try ConfigNode.load(path: file.path).jsonValue()))
        }
        for (name, schema, text) in try Self.documentedExamples() {
            documents.append((name, schema, try ConfigNode.parse(text, file: name).jsonValue()))
        }
        let result = try Self.validate(documents)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test(
        "the schemas refuse what the reader refuses: an unknown key, a missing paymentUrl, a bad step",
        .enabled(
            if: validatorAvailable || Program.isCI,
            "python3 with the jsonschema package is not installed (pip install jsonschema)"))
    func schemasRefuseBadFiles() throws {
        #expect(Self.validatorAvailable, "CI=true: python3 with jsonschema is required (.ci/run installs it)")
        let cases: [(String, String, String)] = [
            ("flow-unknown-key", "flow.schema.json", "policy: p.yaml\nexpectt: {outcome: complete}\n"),
            (
                "flow-inline-policy-typo", "flow.schema.json",
                "policy: {paymentUrl: 'https://a.example/', completeUrl: 'https://a.example/c', cancelUrl: 'https://a.example/x', allowedHost: [a.example]}\n"
            ),
            ("flow-bad-step", "flow.schema.json", "policy: p.yaml\nsteps: [{tap: {text: a, url: b}}]\n"),
            (
                "flow-behaviour-typo", "flow.schema.json",
                "policy: p.yaml\nenvironment: {apps: [{name: A, behaviour: {retrunTo: previous}}]}\n"
            ),
            ("policy-missing-url", "policy.schema.json", "completeUrl: https://a.example/c\ncancelUrl: https://a.example/x\n"),
            ("environment-unknown-app-key", "environment.schema.json", "apps: [{name: A, scheme: [a]}]\n"),
        ]
        for (name, schema, text) in cases {
            let value = try ConfigNode.parse(text, file: name).jsonValue()
            let result = try Self.validate([(name, schema, value)])
            #expect(result.status == 1, "\(name) should be refused: \(result)")
            #expect(result.stdout.hasPrefix(name + ":"), "\(result)")
        }
    }
}

import Testing
import PlainviewConfig

/// The reader an app would use on its own: a policy file's keys through `ConfigNode`, with typed accessors.
@Suite struct PlainviewConfigSmokeTests {
    @Test func aConfigNodeReadsTypedValuesWithTheirPlace() throws {
        let root = try ConfigNode.parse(
            "name: shop\nretries: 3\nenabled: yes\nhosts: [a.example, b.example]\nnested:\n  - {k: v}\n", file: "c.yaml")
        let f = try root.fields(["name", "retries", "enabled", "hosts", "nested"])
        #expect(try f.required("name").string() == "shop")
        #expect(try f.required("retries").int() == 3)
        #expect(try f.required("enabled").bool() == true)
        #expect(try f.required("hosts").strings() == ["a.example", "b.example"])
        let item = try #require(try f.required("nested").sequence().first)
        #expect(item.path == "nested[0]")
        #expect(item.line == 6)
        #expect(try item.mapping().map(\.key) == ["k"])
        #expect(throws: ConfigError(file: "c.yaml", line: 2, key: "retries", "expected a string, found nothing")) {
            try ConfigNode.parse("a: 1\nretries:\n", file: "c.yaml").fields(["a", "retries"])["retries"]?.string()
        }
        #expect(throws: ConfigError(file: "c.yaml", line: 1, key: "name", "expected a whole number, found the scalar 'shop'")) {
            try f.required("name").int()
        }
    }
}

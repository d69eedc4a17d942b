// PACKAGING TEST, not a test of Plainview's code: it runs `swift package show-dependencies` (the toolchain's own
// SwiftPM) for a throwaway app package in a temporary folder that depends on this checkout by path with the
// `Tools` trait off, as docs/embedding.md tells an app to. Resolving fetches Yams (from SwiftPM's cache, or the
// network or mirror the machine uses for github.com); it takes a few seconds and builds nothing.
import Foundation
import Testing
import TestSupport

@Suite struct LightGraphTests {
    /// The package graph an app gets for the policy and config products: Plainview and Yams, nothing else (no
    /// SwiftNIO, NIOSSL, Hummingbird, async-http-client, swift-log, swift-argument-parser).
    @Test func appWithoutToolsTraitResolvesOnlyYams() async throws {
        guard let swift = Program.find("swift") else {
            #expect(!Program.isCI, "swift is not on PATH")
            return
        }
        let app = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: app) }
        let sources = app.appendingPathComponent("Sources/Checkout")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "LightApp",
                dependencies: [.package(name: "Plainview", path: "\(Project.root.path)", traits: [])],
                targets: [
                    .target(
                        name: "Checkout",
                        dependencies: [
                            .product(name: "NavigationPolicy", package: "Plainview"),
                            .product(name: "PlainviewConfig", package: "Plainview"),
                        ]
                    )
                ]
            )

            """
        try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
        try Data("import NavigationPolicy\nimport PlainviewConfig\n".utf8)
            .write(to: sources.appendingPathComponent("Checkout.swift"))

        let r = try await offPool {
            try Program.run(
                swift, ["package", "show-dependencies", "--format", "json"], in: app, timeout: 170)
        }
        #expect(r.status == 0, "\(r)")
        guard r.status == 0, let start = r.stdout.firstIndex(of: "{") else { return }
        let tree = try JSONSerialization.jsonObject(with: Data(r.stdout[start...].utf8))
        var identities: [String] = []
        func collect(_ node: Any) {
            guard let node = node as? [String: Any] else { return }
            for child in node["dependencies"] as? [Any] ?? [] {
                if let identity = (child as? [String: Any])?["identity"] as? String { identities.append(identity) }
                collect(child)
            }
        }
        // The app's one dependency is this checkout (its identity is the folder's name); below it, Yams alone.
        let plainview = ((tree as? [String: Any])?["dependencies"] as? [Any]) ?? []
        #expect(plainview.count == 1, "\(r.stdout)")
        plainview.forEach(collect)
        #expect(identities == ["yams"], "Plainview's dependencies in the app's graph: \(identities)")
        let checkouts =
            (try? FileManager.default.contentsOfDirectory(
                atPath: app.appendingPathComponent(".build/checkouts").path)) ?? []
        #expect(checkouts.map { $0.lowercased() } == ["yams"], "checked out: \(checkouts)")
    }
}

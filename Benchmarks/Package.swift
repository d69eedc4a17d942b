// swift-tools-version:6.1
// Plainview's benchmarks, a package of their own (as swift-nio keeps Benchmarks/) so that building Plainview never
// builds them. Build the root package first (`swift build -c release` at the repository root: the process, import
// and engine groups run its `plainview` and `plainview-webkit`), then `swift run -c release plainview-bench` here.
// Each metric carries its target (the `target` field of its JSON line); see README.md.
import PackageDescription

let package = Package(
    name: "PlainviewBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Plainview", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "plainview-bench",
            dependencies: [
                .product(name: "PlainviewURL", package: "Plainview"),
                .product(name: "NavigationPolicy", package: "Plainview"),
                .product(name: "PageScan", package: "Plainview"),
                .product(name: "PlainviewConfig", package: "Plainview"),
                .product(name: "FlowImport", package: "Plainview"),
                .product(name: "FlowSimulator", package: "Plainview"),
                .product(name: "PlainviewEngines", package: "Plainview"),
                .product(name: "PlainviewTestSupport", package: "Plainview"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

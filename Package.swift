// swift-tools-version:6.1
// Plainview: navigation policy, page extraction and flow simulation for payment pages in web views.
// Dependencies point inward only (see ../shared/DESIGN.md):
//   plainview ─► FlowSimulator ─► PageScan ─► CLibXML2
//       │              │
//       ├─► PlainviewServer ─┤
//       └──────────────┴─► PlainviewConfig ─► NavigationPolicy (pure)
import PackageDescription

let package = Package(
    name: "Plainview",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "NavigationPolicy", targets: ["NavigationPolicy"]),
        .library(name: "PageScan", targets: ["PageScan"]),
        .library(name: "FlowSimulator", targets: ["FlowSimulator"]),
        .executable(name: "plainview", targets: ["plainview"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // Pure decisions: no I/O, no libxml2, no networking. FoundationEssentials at most.
        .target(name: "NavigationPolicy"),
        // libxml2 through pkg-config; only PageScan imports it.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "PageScan", dependencies: ["CLibXML2"]),
        // Files: policy, environment and goodlist files (YAML/JSON), the Public Suffix List, atomic writes.
        .target(name: "PlainviewConfig", dependencies: ["NavigationPolicy", "Yams"]),
        .target(name: "FlowSimulator", dependencies: ["NavigationPolicy", "PageScan", "PlainviewConfig", "Yams"]),
        // Helper endpoints and recorded Pages over real HTTP (Hummingbird), and the backend checker (HTTP client).
        .target(
            name: "PlainviewServer",
            dependencies: [
                "NavigationPolicy", "PageScan", "PlainviewConfig", "Yams",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "plainview",
            dependencies: [
                "NavigationPolicy", "PageScan", "PlainviewConfig", "FlowSimulator", "PlainviewServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks: `swift build -c release && .build/release/plainview-bench` (see README "Performance").
        .executableTarget(
            name: "plainview-bench",
            dependencies: ["NavigationPolicy", "PageScan", "FlowSimulator", "PlainviewConfig"],
            exclude: []
        ),
        // Shared by the test targets only: project paths, conformance vectors, running the built CLI.
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(name: "NavigationPolicyTests", dependencies: ["NavigationPolicy", "TestSupport"]),
        .testTarget(name: "PageScanTests", dependencies: ["PageScan", "TestSupport"]),
        .testTarget(name: "PlainviewConfigTests", dependencies: ["PlainviewConfig", "TestSupport"]),
        .testTarget(name: "FlowSimulatorTests", dependencies: ["FlowSimulator", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "PlainviewCLITests", dependencies: ["plainview", "PageScan", "TestSupport"]),
        .testTarget(
            name: "PlainviewServerTests",
            dependencies: [
                "PlainviewServer", "NavigationPolicy", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

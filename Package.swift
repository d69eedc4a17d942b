// swift-tools-version:6.1
// Plainview: navigation policy, page extraction and flow simulation for payment pages in web views.
//
// The package graph, one idea per target; dependencies point inward only:
//
//   plainview (thin CLI) ──► PlainviewServer (Hummingbird) ──┐
//        │                                                   ▼
//        ├──► PlainviewEngines (engine mode: Chromium over the DevTools pipe, plainview-webkit over the same framing;
//        │          │          child processes, nothing linked)
//        │          │
//        └──────────┴───────────────────────────────► FlowSimulator ──► PageScan ──► CLibXML2
//                                                        │   │   │
//                         PlainviewConfig (one reader) ◄─┘   │   └──► AppSwitch, PaymentURLHelpers (pure)
//                                  │                         │                │
//                                  └──────► NavigationPolicy ◄───────────────┘
//                                                 │   (decision, goodlist, AASA, intents, known apps; pure)
//                                                 ▼
//                                           PlainviewURL (WHATWG URL, UTS #46 hosts, percent-coding,
//                                                         resolution, scheme classes; pure)
//
//   plainview-webkit (the WebKitGTK driver: dlopen, Xvfb) ──► PlainviewRecordingProxy (SwiftNIO, NIOSSL; loopback proxy
//                                                             answering from the flow's recordings)
import PackageDescription

let package = Package(
    name: "Plainview",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "PlainviewURL", targets: ["PlainviewURL"]),
        .library(name: "NavigationPolicy", targets: ["NavigationPolicy"]),
        .library(name: "PlainviewConfig", targets: ["PlainviewConfig"]),
        .library(name: "AppSwitch", targets: ["AppSwitch"]),
        .library(name: "PaymentURLHelpers", targets: ["PaymentURLHelpers"]),
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
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
    ],
    targets: [
        // The URL core: the only place a URL is parsed, resolved, serialised, percent-coded or classified.
        .target(name: "PlainviewURL"),
        // Pure decisions: no I/O, no libxml2, no networking. FoundationEssentials at most.
        .target(name: "NavigationPolicy", dependencies: ["PlainviewURL"]),
        // The app-switch protocols (Swish, BankID, ROAMpay X): reading and building their URLs; pure.
        .target(name: "AppSwitch", dependencies: ["NavigationPolicy", "PlainviewURL"]),
        // The payment-url helper endpoints' responses (intent page, universal-link ladder, AASA, assetlinks); pure.
        .target(name: "PaymentURLHelpers", dependencies: ["NavigationPolicy", "PlainviewURL"]),
        // libxml2 through pkg-config; only PageScan imports it.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "PageScan", dependencies: ["CLibXML2", "PlainviewURL"]),
        // The one strict config reader (ConfigNode: policy, environment, flow, redaction files; file:line:key errors),
        // goodlist files, the Public Suffix List, atomic writes.
        .target(name: "PlainviewConfig", dependencies: ["NavigationPolicy", "PlainviewURL", "Yams"]),
        .target(
            name: "FlowSimulator",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "AppSwitch", "PaymentURLHelpers", "PageScan", "PlainviewConfig",
            ]
        ),
        // Engine mode's drivers: Chromium over the DevTools pipe, plainview-webkit over the same framing (child
        // processes; no browser library linked, so `swift build` needs no engine installed).
        .target(name: "PlainviewEngines", dependencies: ["FlowSimulator", "NavigationPolicy", "PageScan", "PlainviewURL"]),
        // A loopback HTTP/HTTPS proxy whose every answer comes from its owner (a flow's recording): CONNECT tunnels
        // end in TLS with one embedded self-signed certificate. Only the WebKit driver uses it.
        .target(
            name: "PlainviewRecordingProxy",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The WebKitGTK driver of `simulate --engine webkit` (loads WebKitGTK at run time; nothing depends on it but the
        // tests, which need it built).
        .executableTarget(name: "plainview-webkit", dependencies: ["NavigationPolicy", "PlainviewRecordingProxy"]),
        // Helper endpoints and recorded Pages over real HTTP (Hummingbird), and the backend checker (HTTP client).
        .target(
            name: "PlainviewServer",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "PaymentURLHelpers", "PageScan", "PlainviewConfig", "FlowSimulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "plainview",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "AppSwitch", "PaymentURLHelpers", "PageScan", "PlainviewConfig",
                "FlowSimulator", "PlainviewServer", "PlainviewEngines",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks: `swift build -c release && .build/release/plainview-bench` (see README "Performance").
        .executableTarget(
            name: "plainview-bench",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "PageScan", "FlowSimulator", "PlainviewConfig", "PlainviewEngines", "TestSupport",
            ],
            exclude: []
        ),
        // Shared by the test targets (project paths, conformance vectors, running the built CLI) and the bench (dense pages).
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(
            name: "NavigationPolicyTests",
            dependencies: ["PlainviewURL", "NavigationPolicy", "AppSwitch", "PaymentURLHelpers", "TestSupport"]
        ),
        .testTarget(name: "PlainviewURLTests", dependencies: ["PlainviewURL", "TestSupport"]),
        .testTarget(name: "PageScanTests", dependencies: ["PageScan", "PlainviewURL", "TestSupport"]),
        .testTarget(name: "PlainviewConfigTests", dependencies: ["PlainviewConfig", "PlainviewURL", "AppSwitch", "TestSupport"]),
        .testTarget(
            name: "FlowSimulatorTests",
            dependencies: [
                "FlowSimulator", "PlainviewConfig", "PlainviewURL", "AppSwitch", "PaymentURLHelpers", "PlainviewEngines", "TestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "PlainviewCLITests",
            dependencies: [
                "plainview", "plainview-webkit", "PageScan", "PlainviewConfig", "FlowSimulator", "PlainviewServer", "AppSwitch",
                "PlainviewEngines", "TestSupport",
            ]
        ),
        .testTarget(
            name: "RecordingProxyTests",
            dependencies: [
                "PlainviewRecordingProxy", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "PlainviewServerTests",
            dependencies: [
                "PlainviewServer", "FlowSimulator", "PlainviewConfig", "NavigationPolicy", "PaymentURLHelpers", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

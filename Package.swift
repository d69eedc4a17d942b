// swift-tools-version:6.1
// Plainview: navigation policy, page extraction and flow simulation for payment pages in web views.
//
// The package graph, one idea per target; dependencies point inward only (README "Layout" lists the same):
//
//   plainview (thin CLI) ─┬─► PlainviewServer (Hummingbird: helper endpoints, recorded Pages)
//                         ├─► BackendChecker (AsyncHTTPClient: probes a merchant backend's helper endpoints)
//                         ├─► PlainviewEngines (Chromium over the DevTools pipe; plainview-webkit over the same framing)
//                         ├─► GoodlistTools (lint, check, diff, learn, fix)
//                         ├─► AppConfiguration (the host app's manifest, Info.plist, entitlements; check-app)
//                         └─► FlowSimulator (the simulated phone, flows, runs, reports)
//                                  │
//                                  ├──► FlowImport (HAR 1.2 import, redaction) ──┐
//                                  ├──► PageScan ──► CLibXML2 (libxml2)          │
//                                  ├──► AppSwitch, PaymentURLHelpers (pure)      │
//                                  └──► PlainviewConfig (the one config reader) ◄┘
//                                             │
//                                             ▼
//                                       NavigationPolicy (decision, goodlist, AASA, intents, known apps; pure)
//                                             │
//                                             ▼
//                                       PlainviewURL (WHATWG URL, UTS #46 hosts, percent-coding, scheme classes; pure)
//
//   PlainviewSupport (not a product: the JSON reader and writer, the HTML/XML/JSON escapers, the ASCII test, the
//   search for programs on PATH, the threads that run work in parallel in order) sits under every target that
//   writes output, starts a program or a thread.
//   plainview-webkit (the WebKitGTK driver: dlopen, Xvfb) ──► PlainviewRecordingProxy (SwiftNIO, NIOSSL; a
//   loopback proxy answering from the flow's recordings). The benchmarks are a package of their own
//   (Benchmarks/Package.swift), so `swift build` never builds them.
import PackageDescription

/// A product of the tools' packages (argument parsing, logging, Hummingbird, async-http-client, SwiftNIO, NIOSSL),
/// used only with the `Tools` trait. Every use of those packages goes through this, so that a package that turns
/// the trait off (`traits: []` on its `.package` line) never fetches them (docs/embedding.md).
func tools(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Tools"]))
}

let package = Package(
    name: "Plainview",
    // The lowest the code allows (docs/embedding.md, "Platforms"): String(validating:as:), used by PlainviewURL,
    // NavigationPolicy and AppSwitch, and Synchronization's Mutex need macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PlainviewURL", targets: ["PlainviewURL"]),
        .library(name: "NavigationPolicy", targets: ["NavigationPolicy"]),
        .library(name: "AppSwitch", targets: ["AppSwitch"]),
        .library(name: "PaymentURLHelpers", targets: ["PaymentURLHelpers"]),
        .library(name: "PageScan", targets: ["PageScan"]),
        .library(name: "PlainviewConfig", targets: ["PlainviewConfig"]),
        .library(name: "AppConfiguration", targets: ["AppConfiguration"]),
        .library(name: "GoodlistTools", targets: ["GoodlistTools"]),
        .library(name: "FlowImport", targets: ["FlowImport"]),
        .library(name: "FlowSimulator", targets: ["FlowSimulator"]),
        .library(name: "PlainviewEngines", targets: ["PlainviewEngines"]),
        .library(name: "PlainviewServer", targets: ["PlainviewServer"]),
        .library(name: "BackendChecker", targets: ["BackendChecker"]),
        .library(name: "PlainviewRecorder", targets: ["PlainviewRecorder"]),
        // Test helpers (project paths, test vectors, running the built CLI, generated dense pages), as NIO ships
        // NIOTestUtils: for Plainview's own tests and its benchmark package.
        .library(name: "PlainviewTestSupport", targets: ["TestSupport"]),
        .executable(name: "plainview", targets: ["plainview"]),
        .executable(name: "plainview-webkit", targets: ["plainview-webkit"]),
    ],
    // On by default: `swift build`, `swift test` and `swift run plainview` here build everything. An app that wants
    // only the pure libraries (PlainviewURL, NavigationPolicy, AppSwitch, PaymentURLHelpers, PageScan,
    // PlainviewConfig) turns it off and fetches Yams beside Plainview, nothing more.
    traits: [
        .trait(
            name: "Tools",
            description: "The CLI, the helper-endpoint server, the backend checker, the WebKit driver's proxy and the "
                + "test helpers, with the packages they need (all but Yams)"
        ),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
    ],
    targets: [
        // Shared by the targets that write output, never imported by users: the one JSON writer and the JSON, HTML
        // and XML escapers (as swift-collections keeps InternalCollectionsUtilities).
        .target(name: "PlainviewSupport"),
        // The URL core: the only place a URL is parsed, resolved, serialised, percent-coded or classified.
        .target(name: "PlainviewURL"),
        // Pure decisions: no I/O, no libxml2, no networking. FoundationEssentials at most.
        .target(name: "NavigationPolicy", dependencies: ["PlainviewURL", "PlainviewSupport"]),
        // The app-switch protocols (Swish, BankID, ROAMpay X): reading and building their URLs; pure.
        .target(name: "AppSwitch", dependencies: ["NavigationPolicy", "PlainviewURL", "PlainviewSupport"]),
        // The payment-url helper endpoints' responses (intent page, universal-link ladder, AASA, assetlinks); pure.
        .target(name: "PaymentURLHelpers", dependencies: ["NavigationPolicy", "PlainviewURL", "PlainviewSupport"]),
        // libxml2 through pkg-config; PageScan (HTML) and AppConfiguration (the host app's XML files) import it.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "PageScan", dependencies: ["CLibXML2", "PlainviewURL"]),
        // The host app's own files (AndroidManifest.xml, Info.plist, entitlements) and `check-app`: whether the
        // returns the policy and the flows rely on reach the app.
        .target(name: "AppConfiguration", dependencies: ["CLibXML2", "NavigationPolicy", "PaymentURLHelpers", "PlainviewURL"]),
        // The one strict config reader (ConfigNode: policy, environment with app behaviours, flow and redaction
        // files; file:line:key errors), goodlist files and the built-in list, the Public Suffix List, atomic writes.
        .target(
            name: "PlainviewConfig", dependencies: ["NavigationPolicy", "AppSwitch", "PlainviewURL", "PlainviewSupport", "Yams"]),
        // Goodlist maintenance: lint (and fix), check, diff, learn from traces.
        .target(name: "GoodlistTools", dependencies: ["PlainviewConfig", "NavigationPolicy", "PlainviewURL"]),
        // Recordings: HAR 1.2 reading and writing, drafting a flow folder from a recording, redaction of secrets.
        // Never touches the simulated device.
        .target(
            name: "FlowImport",
            dependencies: ["PlainviewConfig", "PageScan", "AppSwitch", "PlainviewURL", "PlainviewSupport"]
        ),
        .target(
            name: "FlowSimulator",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "AppSwitch", "PaymentURLHelpers", "PageScan", "PlainviewConfig",
                "FlowImport", "PlainviewSupport", "AppConfiguration",
            ]
        ),
        // Engine mode's drivers: Chromium over the DevTools pipe, plainview-webkit over the same framing (child
        // processes; no browser library linked, so `swift build` needs no engine installed).
        .target(
            name: "PlainviewEngines",
            dependencies: ["FlowSimulator", "NavigationPolicy", "PageScan", "PlainviewURL", "PlainviewSupport"]
        ),
        // A loopback HTTP/HTTPS proxy whose every answer comes from its owner (a flow's recording): CONNECT tunnels
        // end in TLS with one embedded self-signed certificate. Only the WebKit driver uses it.
        .target(
            name: "PlainviewRecordingProxy",
            dependencies: [
                tools("NIOCore", "swift-nio"),
                tools("NIOPosix", "swift-nio"),
                tools("NIOHTTP1", "swift-nio"),
                tools("NIOSSL", "swift-nio-ssl"),
            ]
        ),
        // The WebKitGTK driver of `simulate --engine webkit` (loads WebKitGTK at run time).
        .executableTarget(name: "plainview-webkit", dependencies: ["PlainviewSupport", "PlainviewRecordingProxy"]),
        // Helper endpoints and recorded Pages over real HTTP (Hummingbird).
        .target(
            name: "PlainviewServer",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "PaymentURLHelpers", "PageScan", "PlainviewConfig", "FlowSimulator",
                "PlainviewSupport",
                tools("Hummingbird", "hummingbird"),
                tools("Logging", "swift-log"),
                tools("HTTPTypes", "swift-http-types"),
            ]
        ),
        // `plainview record`: a real checkout session in a real engine against the real servers becomes a flow.
        .target(
            name: "PlainviewRecorder",
            dependencies: [
                "FlowSimulator", "FlowImport", "PlainviewConfig", "PlainviewURL", "NavigationPolicy", "PageScan",
                tools("AsyncHTTPClient", "async-http-client"),
                tools("NIOCore", "swift-nio"),
                tools("NIOHTTP1", "swift-nio"),
                tools("NIOSSL", "swift-nio-ssl"),
            ]
        ),
        // Probes a merchant backend's helper endpoints over real HTTP (AsyncHTTPClient, as the recorder).
        .target(
            name: "BackendChecker",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "PaymentURLHelpers", "PageScan",
                tools("AsyncHTTPClient", "async-http-client"),
                tools("NIOCore", "swift-nio"),
                tools("NIOHTTP1", "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "plainview",
            dependencies: [
                "PlainviewURL", "NavigationPolicy", "AppSwitch", "PaymentURLHelpers", "PageScan", "PlainviewConfig",
                "GoodlistTools", "FlowImport", "FlowSimulator", "PlainviewServer", "BackendChecker", "PlainviewEngines",
                "PlainviewSupport", "AppConfiguration", "PlainviewRecorder",
                tools("Logging", "swift-log"),
                tools("ArgumentParser", "swift-argument-parser"),
            ]
        ),
        // Shared by the test targets and the benchmark package: project paths, the test vectors in Tests/Vectors,
        // running the built CLI, generated dense pages.
        .target(
            name: "TestSupport",
            dependencies: ["PlainviewSupport", tools("Logging", "swift-log")],
            path: "Sources/TestSupport"
        ),

        // One test target per library (plus the black-box CLI tests).
        .testTarget(name: "PlainviewSupportTests", dependencies: ["PlainviewSupport", "TestSupport"]),
        .testTarget(name: "PlainviewURLTests", dependencies: ["PlainviewURL", "TestSupport"]),
        .testTarget(
            name: "NavigationPolicyTests", dependencies: ["PlainviewURL", "NavigationPolicy", "AppSwitch", "TestSupport"]),
        .testTarget(
            name: "AppSwitchTests",
            dependencies: ["AppSwitch", "NavigationPolicy", "PlainviewURL", "PlainviewSupport", "TestSupport"]
        ),
        .testTarget(
            name: "PaymentURLHelpersTests",
            dependencies: [
                "PaymentURLHelpers", "AppSwitch", "NavigationPolicy", "PlainviewURL", "PlainviewSupport", "TestSupport",
            ]
        ),
        .testTarget(name: "PageScanTests", dependencies: ["PageScan", "PlainviewURL", "TestSupport"]),
        .testTarget(name: "AppConfigurationTests", dependencies: ["AppConfiguration"]),
        .testTarget(
            name: "PlainviewConfigTests",
            dependencies: ["PlainviewConfig", "NavigationPolicy", "PlainviewURL", "AppSwitch", "TestSupport"]
        ),
        .testTarget(
            name: "GoodlistToolsTests",
            dependencies: ["GoodlistTools", "PlainviewConfig", "NavigationPolicy", "PlainviewURL", "TestSupport"]),
        .testTarget(
            name: "FlowImportTests",
            dependencies: ["FlowImport", "PlainviewConfig", "PlainviewURL", "PageScan", "AppSwitch", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FlowSimulatorTests",
            dependencies: [
                "FlowSimulator", "FlowImport", "PlainviewConfig", "PlainviewURL", "NavigationPolicy", "AppSwitch",
                "PaymentURLHelpers",
                "PlainviewSupport", "TestSupport",
            ]
        ),
        .testTarget(
            name: "PlainviewEnginesTests",
            dependencies: ["PlainviewEngines", "plainview-webkit", "FlowSimulator", "NavigationPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "RecordingProxyTests",
            dependencies: [
                "PlainviewRecordingProxy", "TestSupport",
                tools("AsyncHTTPClient", "async-http-client"),
                tools("NIOCore", "swift-nio"),
                tools("NIOHTTP1", "swift-nio"),
                tools("NIOSSL", "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "PlainviewServerTests",
            dependencies: [
                "PlainviewServer", "FlowSimulator", "PlainviewConfig", "NavigationPolicy", "PaymentURLHelpers", "TestSupport",
                tools("Hummingbird", "hummingbird"),
                tools("HummingbirdTesting", "hummingbird"),
                tools("Logging", "swift-log"),
            ]
        ),
        .testTarget(
            name: "BackendCheckerTests",
            dependencies: [
                "BackendChecker", "PlainviewServer", "NavigationPolicy", "PaymentURLHelpers", "PlainviewURL", "PlainviewSupport",
                "PageScan", "TestSupport",
                tools("Hummingbird", "hummingbird"),
                tools("HummingbirdTesting", "hummingbird"),
                tools("Logging", "swift-log"),
            ]
        ),
        .testTarget(
            name: "PlainviewCLITests",
            dependencies: [
                "plainview", "plainview-webkit", "PageScan", "PlainviewConfig", "GoodlistTools", "FlowImport", "FlowSimulator",
                "PlainviewServer", "AppSwitch", "PlainviewEngines", "TestSupport",
                tools("Hummingbird", "hummingbird"),
                tools("HummingbirdTLS", "hummingbird"),
                tools("HTTPTypes", "swift-http-types"),
                tools("Logging", "swift-log"),
                tools("NIOCore", "swift-nio"),
                tools("NIOSSL", "swift-nio-ssl"),
            ],
            // Read by path at test time (the loopback sites' test CA), not built.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

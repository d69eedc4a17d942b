// swift-tools-version:6.1
// Throughput of PageScan vs the bare libxml2 parse (not a test). Run from this folder:
//   swift run -c release pagescan-bench /tmp/pagescan-corpus
//   python3 lxml_bench.py /tmp/pagescan-corpus      # the same extraction with lxml (needs python3-lxml)
import PackageDescription

let package = Package(
    name: "PageScanBench",
    dependencies: [.package(name: "Plainview", path: "../..")],
    targets: [
        .executableTarget(name: "pagescan-bench", dependencies: [.product(name: "PageScan", package: "Plainview")]),
    ]
)

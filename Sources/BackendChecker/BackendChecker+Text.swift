// Reading fetched pages: the extractor's view of them, and short quotes for the report.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

extension BackendChecker {
    /// What a browser would follow on a fetched page, read by the same extractor the simulator uses.
    static func scan(_ body: String, at url: String) -> PageScanResult {
        (try? PageScanner.scan(Array(body.utf8), contentType: "text/html; charset=utf-8", documentURL: url)) ?? PageScanResult()
    }

    static func oneLine(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Up to 60 characters either side of the first occurrence of `needle` (case-insensitive), on one line.
    static func snippet(_ body: String, around needle: String) -> String? {
        guard let r = body.range(of: needle, options: .caseInsensitive) else { return nil }
        let start = body.index(r.lowerBound, offsetBy: -60, limitedBy: body.startIndex) ?? body.startIndex
        let end = body.index(r.upperBound, offsetBy: 60, limitedBy: body.endIndex) ?? body.endIndex
        return oneLine(String(body[start..<end]))
    }
}

import Foundation
import Testing
import TestSupport
@testable import PlainviewURL

/// Inputs the libFuzzer runs found (kept in Benchmarks/fuzz/seeds/url/): normalising a host twice gives the
/// same host as normalising it once.
@Suite struct IDNAFuzzRegressionTests {
    @Test func normalizeIsIdempotentOnALongMixedScriptHost() throws {
        let input = try String(
            contentsOf: Project.path("Benchmarks/fuzz/seeds/url/normalize-idempotent-long-idn"), encoding: .utf8)
        // Its ASCII form is longer than the bound (2,048 bytes), so it is no host at all, the first time as the second.
        let once = HostName.normalize(input)
        #expect(once == nil, "\(once?.utf8.count ?? 0) bytes")
        if let once { #expect(HostName.normalize(once) == once) }
    }
}

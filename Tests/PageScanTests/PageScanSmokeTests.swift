import Testing
@testable import PageScan

@Suite struct PageScanSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}

import Testing
@testable import PlainviewConfig

@Suite struct PlainviewConfigSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}

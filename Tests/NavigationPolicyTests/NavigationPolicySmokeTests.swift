import Testing
@testable import NavigationPolicy

@Suite struct NavigationPolicySmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}

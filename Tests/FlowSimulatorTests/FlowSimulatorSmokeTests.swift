import Testing
@testable import FlowSimulator

@Suite struct FlowSimulatorSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}

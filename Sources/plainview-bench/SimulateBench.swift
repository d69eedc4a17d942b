// Simulated navigations per second. Filled in when the simulator lands.
enum SimulateBench {
    static func run(seconds: Double) -> [Metric] { [] }
}

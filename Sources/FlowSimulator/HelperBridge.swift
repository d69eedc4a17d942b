// The flow key `helpers:`: the payment-url helper endpoints (seed 000) answered by NavigationPolicy's pure
// HelperEndpoints. TEMPORARY body until HelperEndpoints lands on main.
import PlainviewConfig

enum HelperBridge {
    static func responder(_ node: YNode) throws(ConfigError) -> @Sendable (String, String) -> RecordedResponse? {
        throw node.error("the helper endpoints are not available in this build")
    }
}

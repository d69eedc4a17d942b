// The flow key `helpers:`: requests to the payment-url helper endpoints (Swedbank Pay's Merchant Backend documentation: android-intent,
// ios-universal-link, the back-link page, AASA, assetlinks) that no recorded page answers are answered by
// NavigationPolicy's pure HelperEndpoints — the same code `plainview serve` runs.
//
//   helpers:
//     publicUrl: https://shop.example.com       # the origin of the payment urls
//     root: /swedbank-pay-mobile/               # where the helpers are mounted (default /)
//     trampolineUrl: https://links.example.net  # optional: the back-link page's origin (another domain for case 2a)
//     androidPackage: com.example.shop          # optional
import PaymentURLHelpers
import Foundation
import NavigationPolicy
import PlainviewURL
import PlainviewConfig

enum HelperBridge {
    static let keys = ["publicUrl", "root", "trampolineUrl", "androidPackage"]

    static func responder(_ node: ConfigNode) throws(ConfigError) -> @Sendable (String, String) -> RecordedResponse? {
        let f = try node.fields(keys)
        let configuration: HelperEndpointsConfiguration
        do {
            configuration = try HelperEndpointsConfiguration(
                publicURL: try f.required("publicUrl").string(), root: try f.value("root")?.string() ?? "/",
                androidPackage: try f.value("androidPackage")?.string(), trampolineURL: try f.value("trampolineUrl")?.string())
        } catch let e as ConfigError {
            throw e
        } catch {
            throw node.error("\(error)")
        }
        let endpoints = HelperEndpoints(configuration: configuration)
        let origins = [configuration.publicOrigin.description, configuration.trampolineOrigin.description]
        return { method, url in
            guard let (origin, target) = split(url), origins.contains(origin), endpoints.handles(target: target) else {
                return nil
            }
            let r = endpoints.respond(to: HelperRequest(method: method, target: target))
            return RecordedResponse(status: r.status, headers: r.headers.map { .init($0.name, $0.value) }, html: r.body)
        }
    }

    /// `scheme://authority` (default port dropped, lower case) and `path?query` of an http(s) URL.
    static func split(_ url: String) -> (String, String)? {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web, let origin = u.origin else { return nil }
        return (origin, u.requestTarget)
    }
}

// A deliberately broken backend reproducing the public sample backend's defects (issue 6), so the checker
// can be shown to report each one: a 500 HTML page on a validation error, unescaped echo, no package or
// scheme validation, the Host header trusted, a 301 to a foreign back-link host, an AASA path hard-wired to
// the host root although the helpers are mounted under /swedbank-pay-mobile/, and no assetlinks.json.
import PlainviewURL
import PaymentURLHelpers
import Hummingbird
import NavigationPolicy

enum BrokenBackendFixture {
    static func makeApplication() -> some ApplicationProtocol {
        let router = Router()
        router.get("/swedbank-pay-mobile/sdk-callback/android-intent") { request, _ -> Response in
            let host = request.head.authority ?? "unknown"
            guard let package = request.uri.queryParameters.get("package") else { return serverError() }
            let uri = request.head.path ?? "/"
            let intent =
                "intent://\(host)\(uri)#Intent;scheme=http;action=\(HelperEndpoints.intentAction);package=\(package);end;"
            let html =
                "<html><head><meta http-equiv=\"refresh\" content=\"0;url=\(intent)\"></head><body><p>Returning to \(package)</p><a href=\"\(intent)\">Back to app</a></body></html>"
            return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/swedbank-pay-mobile/sdk-callback/ios-universal-link") { request, _ -> Response in
            let host = request.head.authority ?? "unknown"
            let q = request.uri.queryParameters
            guard let scheme = q.get("scheme"), let language = q.get("language") else { return serverError() }
            let uri = request.head.path ?? "/"
            if q.get("fallback") == "true" {
                return Response(status: .movedPermanently, headers: [.location: "\(scheme)://\(host)\(uri)"])
            }
            let target = "http://\(host)\(uri)&fallback=true"
            let location =
                "https://ecom.stage.payex.com/externalresourcehost/trampoline?target=\(PercentEncoding.encodeComponent(target))&language=\(language)"
            return Response(status: .movedPermanently, headers: [.location: location])
        }
        router.get("/.well-known/apple-app-site-association") { _, _ -> Response in
            let json =
                #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.shop","paths":["/sdk-callback/*"]}]}}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func serverError() -> Response {
        Response(
            status: .internalServerError, headers: [.contentType: "text/html"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string:
                        "<html><body><h1>Internal Server Error</h1><pre>TypeError: Cannot read properties of undefined</pre></body></html>"
                )))
    }
}

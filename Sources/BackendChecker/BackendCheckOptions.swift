// What `check-backend` is told: the backend's base URL and how to probe it.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

public struct BackendCheckOptions: Sendable {
    /// The backend's root endpoint as probed, e.g. `http://10.0.0.7:8080/swedbank-pay-mobile/`.
    public var baseURL: String
    /// The origin the backend generates URLs for (`https://shop.example.com`); nil → the probed origin.
    /// Expected Location headers, back-link targets and intent data are computed from it.
    public var publicURL: String?
    /// Package sent to the Android helper.
    public var package = "com.example.plainview"
    /// Custom scheme sent to the iOS helper.
    public var scheme = "plainviewcheck"
    public var language = "en-US"
    public var appName = "Plainview Check"
    /// When given, the AASA must list this app id.
    public var expectedAppID: String?
    /// When given, assetlinks.json must delegate to this package.
    public var expectedAndroidPackage: String?
    /// SHA-256 fingerprints of the app's signing certificates (32 bytes of hex, `AB:CD:…` as keytool prints them,
    /// either case, colons optional); when given, assetlinks.json must list each for the app's package.
    public var expectedAndroidCertSHA256: [String] = []
    public var timeoutSeconds: Int64 = 10

    public init(baseURL: String) { self.baseURL = baseURL }
}

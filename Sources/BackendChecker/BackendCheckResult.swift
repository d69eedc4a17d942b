// One check's verdict, as `check-backend` prints it.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

public struct BackendCheckResult: Sendable, Equatable, CustomStringConvertible {
    public enum Outcome: String, Sendable { case pass = "PASS", fail = "FAIL", warn = "WARN", skip = "SKIP" }
    public var check: String
    public var outcome: Outcome
    public var detail: String
    public var description: String { "\(outcome.rawValue) \(check): \(detail)" }
}

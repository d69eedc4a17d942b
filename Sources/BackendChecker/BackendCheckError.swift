// Why the checker could not start.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

/// The base URL given to the checker was not usable.
public struct BackendCheckError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

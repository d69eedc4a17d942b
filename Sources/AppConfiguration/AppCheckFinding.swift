import Foundation

/// One line of `plainview check-app`: a return or a file checked on one platform, and what to change.
public struct AppCheckFinding: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable {
        case pass, warn, fail
    }

    /// `ios` or `android`.
    public var platform: String
    public var verdict: Verdict
    /// What was checked (`paymentUrl https://…`, `WKAppBoundDomains`).
    public var subject: String
    public var message: String
    /// The file and line to change (or that proves a pass).
    public var file: String?
    public var line: Int?

    public var location: String? { file.map { "\($0)\(line.map { ":\($0)" } ?? "")" } }

    /// `ios      FAIL  subject: FILE:LINE: message`.
    public var text: String {
        let where_ = location.map { "\($0): " } ?? ""
        return
            "\(platform.padding(toLength: 8, withPad: " ", startingAt: 0)) \(verdict.rawValue.uppercased())  \(subject): \(where_)\(message)"
    }
}

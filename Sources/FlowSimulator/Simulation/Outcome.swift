import Foundation
import NavigationPolicy

/// How a run ended.
public struct Outcome: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// completeUrl reached in the host app's web view (or delivered to the host app).
        case complete
        /// cancelUrl reached in the host app.
        case canceled
        /// Nothing more happens by itself and no user step helps: `where` + `reason` say why.
        case stuck
        /// A redirect/refresh cycle, or the step bound was hit.
        case loop
        /// The flow itself is wrong: an unrecorded URL, a bad page.
        case error
    }

    public var kind: Kind
    /// Where the run ended: `webview`, `browser` or `app NAME`.
    public var place: String
    public var reason: String

    public init(_ kind: Kind, place: String, reason: String) {
        self.kind = kind
        self.place = place
        self.reason = reason
    }

    public var description: String {
        switch kind {
        case .complete, .canceled: return "\(kind.rawValue) in \(Self.placeName(place))"
        case .stuck, .loop, .error: return "\(kind.rawValue) in \(Self.placeName(place)): \(reason)"
        }
    }

    static func placeName(_ place: String) -> String {
        switch place {
        case "webview": return "web view"
        case "browser": return "browser"
        default: return place
        }
    }
}

import AppSwitch
import Foundation
import NavigationPolicy

/// Where a flow comes from. A seam for other recorders: a HAR import adds `case har(String)`, its
/// classification in `FlowLoader.sources(_:)` and its reader in `FlowLoader.load(_:)`.
public enum FlowSource: Sendable, Hashable {
    /// A `flow.yaml` file.
    case flowFile(String)

    public var path: String {
        switch self {
        case .flowFile(let p): p
        }
    }
}

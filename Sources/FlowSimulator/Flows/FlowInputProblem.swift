import Foundation
import PlainviewConfig
import FlowImport

/// A flow file, folder or recording that could not be read; the other flows still run.
public struct FlowInputProblem: Error, Sendable, CustomStringConvertible {
    /// The path as found (a flow file, a folder named on the command line, a `.har`).
    public var path: String
    public var failure: HARImport.Failure
    public init(path: String, failure: HARImport.Failure) {
        self.path = path
        self.failure = failure
    }
    /// What is wrong, naming the file, line and key where known.
    public var message: String { failure.description }
    public var description: String { message }
}

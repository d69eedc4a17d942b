import Foundation
import PlainviewConfig
import FlowImport

/// A flow file, folder or recording that could not be read; the other flows still run.
public struct FlowInputProblem: Error, Sendable, CustomStringConvertible {
    /// The path as found (a flow file, a folder named on the command line, a `.har`).
    public var path: String
    public var failure: HARImport.Failure
    /// Where the flow stands in the whole suite (`LoadedFlows.positions`); nil for a PATH that names nothing
    /// (every shard finds that).
    public var position: Int?
    /// The message as read back from a results file (`simulate --results`), where the failure itself is not kept.
    private var recordedMessage: String?

    public init(path: String, failure: HARImport.Failure, position: Int? = nil) {
        self.path = path
        self.failure = failure
        self.position = position
    }

    /// A problem read back from a results file: its path, message and position as the run that found it wrote them.
    public init(path: String, message: String, position: Int?) {
        self.init(path: path, failure: .config(ConfigError(file: path, message)), position: position)
        recordedMessage = message
    }

    /// What is wrong, naming the file, line and key where known.
    public var message: String { recordedMessage ?? failure.description }
    public var description: String { message }
}

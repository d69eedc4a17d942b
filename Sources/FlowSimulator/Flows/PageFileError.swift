// Why a flow could not run: one of its page files went away after the flow was loaded.

/// A page file that was readable when its flow was loaded and is not when the flow runs.
public struct PageFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// The flow file and the page's line in it.
    public var flowFile: String
    public var line: Int?
    public var description: String {
        "\(flowFile)\(line.map { ":\($0)" } ?? ""): cannot read the page file \(path) (it was readable when the flow was loaded)"
    }
}

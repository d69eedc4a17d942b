// Why a results file (`simulate --results FILE`) cannot be read or merged.
import Foundation

/// A results file that does not read, or files that do not merge: names the file (and the key) and says what
/// was expected.
public struct ResultsFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it; nil when no one file is at fault (a shard none of the files holds).
    public var file: String?
    /// The key path (`flows[3].runs[0].branches`), when one key is at fault.
    public var key: String?
    /// What was wrong and what was expected.
    public var message: String

    public init(file: String?, key: String? = nil, _ message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    /// `file: key: message`, leaving out what is not known.
    public var description: String {
        [file, key, message].compactMap { $0 }.joined(separator: ": ")
    }
}

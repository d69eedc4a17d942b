// The whole import: read a HAR, redact it, draft the flow, write the flow folder. Used by `plainview import`
// (into Pages/NAME) and by `plainview simulate FILE.har` (into a temporary folder it then runs and removes).
import Foundation

public enum HARImport {
    public struct Options: Sendable {
        /// nil: no redaction (`--no-redact`).
        public var redaction: RedactionConfig?
        /// User steps replacing the inferred taps.
        public var taps: [String]?
        /// How the flow file is written (its `redaction` is filled in here).
        public var writer: HARFlowWriter.Options
        public var reader: HARReader.Options

        public init(redaction: RedactionConfig? = .default, taps: [String]? = nil, writer: HARFlowWriter.Options,
                    reader: HARReader.Options = .init()) {
            self.redaction = redaction
            self.taps = taps
            self.writer = writer
            self.reader = reader
        }
    }

    public struct Result: Sendable {
        public var draft: HARFlowDraft
        /// nil when not redacted.
        public var report: RedactionReport?
        /// Best-effort notes from reading (reordered entries, unparseable times).
        public var notes: [HARNote]
        /// The files written (flow.yaml first).
        public var fileNames: [String]
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case har(HARError)
        case flow(file: String, HARFlowBuilder.BuildError)
        case write(HARFlowWriter.WriteError)
        public var description: String {
            switch self {
            case .har(let e): return e.description
            case .flow(let file, let e): return "\(file): \(e.description)"
            case .write(let e): return e.description
            }
        }
    }

    /// Reads `har` (named `name` in messages), redacts, drafts and writes the flow folder `folder` atomically.
    public static func run(har: URL, name: String, to folder: URL, force: Bool, options: Options) throws(Failure) -> Result {
        var log: HARLog
        do {
            log = try HARReader(options: options.reader).read(contentsOf: har, name: name)
        } catch {
            throw .har(error)
        }
        var report: RedactionReport?
        if let config = options.redaction {
            var redactor = Redactor(config: config)
            log = redactor.redact(log)
            report = redactor.report
        }
        let draft: HARFlowDraft
        do {
            draft = try HARFlowBuilder.draft(from: log, taps: options.taps)
        } catch {
            throw .flow(file: name, error)
        }
        var writerOptions = options.writer
        writerOptions.redaction = report
        let files = HARFlowWriter.files(for: draft, options: writerOptions)
        do {
            try HARFlowWriter.write(files, to: folder, force: force)
        } catch {
            throw .write(error)
        }
        return Result(draft: draft, report: report, notes: log.notes, fileNames: files.map(\.name))
    }
}

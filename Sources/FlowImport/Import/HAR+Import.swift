// The whole import: read a HAR, redact it, draft the flow, write the flow folder. Used by `plainview import`
// (into Pages/NAME); `plainview simulate FILE.har` drafts the same flow and runs it in memory (HARReplay).
import Foundation
import PlainviewConfig
import PlainviewSupport

public enum HARImport {
    public struct Options: Sendable {
        /// nil: no redaction (`--no-redact`).
        public var redaction: RedactionConfig?
        /// User steps replacing the inferred taps.
        public var taps: [String]?
        /// User steps of any kind replacing the inferred ones (`plainview record`); takes precedence over `taps`.
        public var steps: [HARFlowDraft.Step]?
        /// How the flow file is written (its `redaction` is filled in here).
        public var writer: HARFlowWriter.Options
        public var reader: HARReader.Options
        /// Fail closed: write nothing when anything that looks like a secret is left (SecretResidue).
        public var strict: Bool

        public init(
            redaction: RedactionConfig? = .default, taps: [String]? = nil, writer: HARFlowWriter.Options,
            reader: HARReader.Options = .init(), strict: Bool = false
        ) {
            self.strict = strict
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
        /// What still looks like a secret in the written files though nothing classified it.
        public var residue: [SecretResidue.Finding] = []
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case har(HARError)
        case flow(file: String, HARFlowBuilder.BuildError)
        case write(HARFlowWriter.WriteError)
        /// The drafted flow (or another flow given with it) does not load.
        case config(ConfigError)
        /// `strict`: something that looks like a secret was not redacted; nothing was written.
        case residue([SecretResidue.Finding])
        public var description: String {
            switch self {
            case .har(let e): return e.description
            case .flow(let file, let e): return "\(file): \(e.description)"
            case .write(let e): return e.description
            case .config(let e): return e.description
            case .residue(let found):
                return
                    (["--strict: \(found.count) value(s) look like secrets but were not redacted; nothing was written"]
                    + found.map(\.description)).joined(separator: "\n")
            }
        }
    }

    /// Reads `har` (named `name` in messages), redacts, drafts and writes the flow folder `folder` atomically.
    public static func run(har: URL, name: String, to folder: URL, force: Bool, options: Options) throws(Failure) -> Result {
        var result = try draft(har: har, name: name, options: options)
        if options.strict {
            let files = files(result, options: options)
            result.residue = residue(in: files)
            if !result.residue.isEmpty { throw .residue(result.residue) }
            do {
                try HARFlowWriter.write(files, to: folder, force: force)
            } catch {
                throw .write(error)
            }
            result.fileNames = files.map(\.name)
            return result
        }
        // Without --strict nothing waits on the check. The page files are written (creating thousands of files is
        // mostly the file system's time) while flow.yaml is made and every file checked; the check finds the same
        // either way.
        let pages = HARFlowWriter.pageFiles(for: result.draft)
        let folderWrite: HARFlowWriter.FolderWrite
        do {
            folderWrite = try HARFlowWriter.FolderWrite(folder, force: force)
        } catch {
            throw .write(error)
        }
        var flow = Data()
        var found: [SecretResidue.Finding] = []
        var written: HARFlowWriter.WriteError?
        _ = Threads.map(2, threads: 2) { i in
            if i == 0 {
                do throws(HARFlowWriter.WriteError) { try folderWrite.add(pages.files) } catch { written = error }
            } else {
                flow = HARFlowWriter.flowFile(for: result.draft, pageFiles: pages, options: writerOptions(result, options))
                found = residue(in: [("flow.yaml", flow)] + pages.files)
            }
        }
        result.residue = found
        do throws(HARFlowWriter.WriteError) {
            if let written { throw written }
            try folderWrite.add([("flow.yaml", flow)])
            try folderWrite.commit()
        } catch {
            throw .write(error)
        }
        result.fileNames = ["flow.yaml"] + pages.files.map(\.name)
        return result
    }

    /// Reads `har` (named `name` in messages), redacts and drafts the flow, in memory; writes nothing.
    public static func draft(har: URL, name: String, options: Options) throws(Failure) -> Result {
        var log: HARLog
        do {
            log = try HARReader(options: options.reader).read(contentsOf: har, name: name)
        } catch {
            throw .har(error)
        }
        return try draft(log: &log, name: name, options: options)
    }

    /// Redacts `log` in place and drafts the flow from it, in memory; writes nothing.
    public static func draft(log: inout HARLog, name: String, options: Options) throws(Failure) -> Result {
        var report: RedactionReport?
        var options = options
        /// Redacts in place (the recording is held once); the redactor and what it learnt are gone on return,
        /// before the draft is made.
        func redact(with config: RedactionConfig) {
            var redactor = Redactor(config: config)
            redactor.redact(&log)
            // What the user typed is redacted as the form fields that posted it: the same secret, the same placeholder.
            options.steps = options.steps?.enumerated().map { i, step in
                guard case .type(let field, let text) = step else { return step }
                return .type(field: field, text: redactor.redactField(name: field, value: text, at: "steps[\(i)].type.text"))
            }
            report = redactor.report
        }
        if let config = options.redaction { redact(with: config) }
        let draft: HARFlowDraft
        do {
            draft = try HARFlowBuilder.draft(from: log, steps: options.steps ?? options.taps.map { $0.map { .tapText($0) } })
        } catch {
            throw .flow(file: name, error)
        }
        return Result(draft: draft, report: report, notes: log.notes, fileNames: [])
    }

    /// What looks like a secret in the files, though no detector classified it (see SecretResidue). A large
    /// `flow.yaml` is scanned one block of pages at a time (never as one decoded copy of the whole file), and
    /// each block one page at a time, so the detectors' quick tests (SecretPrefilter) skip the pages that cannot
    /// hold what a detector looks for; the findings of a block are listed as if it were scanned whole. The files
    /// and blocks are scanned on all cores (Threads.map), their findings listed in file and block order.
    public static func residue(in files: [(name: String, data: Data)]) -> [SecretResidue.Finding] {
        let pieces = files.indices.flatMap { f in
            let marker = files[f].name == "flow.yaml" ? pageItem : nil
            return blocks(of: files[f].data, splittingAt: marker).map {
                (file: f, range: $0.0, firstLine: $0.1, paged: marker != nil)
            }
        }
        return Threads.map(pieces.count, threads: ProcessInfo.processInfo.activeProcessorCount) { p in
            let piece = pieces[p]
            return residue(in: files[piece.file], range: piece.range, firstLine: piece.firstLine, paged: piece.paged)
        }.flatMap { $0 }
    }

    /// The residue of one piece of a file: when `paged` (a block of `flow.yaml`'s pages), page by page.
    private static func residue(
        in f: (name: String, data: Data), range: Range<Int>, firstLine: Int, paged: Bool
    ) -> [SecretResidue.Finding] {
        let block = f.data[range]
        guard paged, String(validating: block, as: UTF8.self) != nil else {
            guard let text = String(validating: block, as: UTF8.self) ?? String(data: block, encoding: .isoLatin1)
            else { return [] }
            return SecretResidue.scan(text, file: f.name, firstLine: firstLine)
        }
        // UTF-8 as a whole, so in each page too (pages are cut just after a newline).
        var inBlock: [(check: Int, finding: SecretResidue.Finding)] = []
        for (pageRange, pageLine) in blocks(of: block, splittingAt: pageItem, size: 0) {
            let text = String(decoding: f.data[pageRange], as: UTF8.self)
            inBlock += SecretResidue.scanInOrder(text, file: f.name, firstLine: firstLine + pageLine - 1)
        }
        return inBlock.enumerated().sorted {
            $0.element.check != $1.element.check ? $0.element.check < $1.element.check : $0.offset < $1.offset
        }.map(\.element.finding)
    }

    /// `\n  - `: where a page of flow.yaml starts (no secret spans it: every value is on its key's line).
    static let pageItem = Array("\n  - ".utf8)

    /// The ranges of `data` to scan, each about `target` bytes (256 kB) or more, cut just before `marker` (the
    /// whole when nil; at every marker with size 0), with the
    /// 1-based line each starts on.
    static func blocks(of data: Data, splittingAt marker: [UInt8]?, size target: Int = 1 << 18) -> [(Range<Int>, Int)] {
        guard let marker, data.count > target else { return [(data.startIndex..<data.endIndex, 1)] }
        var out: [(Range<Int>, Int)] = []
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            var start = 0
            var line = 1
            var linesInBlock = 0
            var i = 0
            while i < b.count {
                if b[i] == 0x0A {
                    if i - start >= target, i + marker.count <= b.count,
                        marker.indices.allSatisfy({ b[i + $0] == marker[$0] })
                    {
                        out.append(((data.startIndex + start)..<(data.startIndex + i + 1), line))
                        line += linesInBlock + 1
                        linesInBlock = 0
                        start = i + 1
                        i += 1
                        continue
                    }
                    linesInBlock += 1
                }
                i += 1
            }
            if start < b.count { out.append(((data.startIndex + start)..<(data.startIndex + b.count), line)) }
        }
        return out
    }

    /// The flow folder's files for a draft: `flow.yaml` first, then the page bodies.
    public static func files(_ result: Result, options: Options) -> [(name: String, data: Data)] {
        HARFlowWriter.files(for: result.draft, options: writerOptions(result, options))
    }

    /// How the flow file of `result` is written: `options.writer` with the redaction report.
    static func writerOptions(_ result: Result, _ options: Options) -> HARFlowWriter.Options {
        var writerOptions = options.writer
        writerOptions.redaction = result.report
        return writerOptions
    }
}

// `plainview simulate FILE.har`: a recording replayed as a flow, in memory. The flow is drafted exactly as
// `plainview import` drafts it (redacted by default) and read by the same flow loader, with the page bodies
// taken from memory instead of a folder: import → simulate gives the same run as replaying the HAR.
import Foundation
import PlainviewConfig

/// How recordings are replayed: the merchant's policy and device, what must happen, and redaction.
public struct HARReplayOptions: Sendable {
    /// The policy file (required to replay a recording).
    public var policy: String
    /// The environment file (installed apps), if any.
    public var environment: String?
    /// The outcome the recording must reach.
    public var expect: Outcome.Kind
    /// User steps replacing the inferred taps.
    public var taps: [String]?
    /// nil: no redaction (`--no-redact`). The policy's own URLs keep their query values (they must still match).
    public var redaction: RedactionConfig?

    public init(policy: String, environment: String? = nil, expect: Outcome.Kind = .complete, taps: [String]? = nil,
                redaction: RedactionConfig? = .default) {
        self.policy = policy
        self.environment = environment
        self.expect = expect
        self.taps = taps
        self.redaction = redaction
    }
}

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

/// One part of a flow suite split for a CI matrix (`--shard I/N`): the flows whose position in the suite sorted
/// by path is I, I+N, I+2N … (1-based), so the parts never overlap, cover the suite, and stay put as it grows.
public struct FlowShard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    /// Why `I/N` was refused.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `I/N`: whole numbers with 1 ≤ I ≤ N.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else {
            throw ParseError(description: "expected I/N (this run's part I of N parts, like 2/4), found '\(text)'")
        }
        guard n >= 1, i >= 1, i <= n else {
            throw ParseError(description: "expected 1 ≤ I ≤ N in I/N (like 1/\(max(n, 2)) … \(max(n, 2))/\(max(n, 2))), found '\(text)'")
        }
        index = i
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// This part of `paths`, in sorted order.
    public func select(_ paths: [String]) -> [String] {
        paths.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}

/// Flows to run: flow files, flow folders and recordings, in the order named.
public struct LoadedFlows: Sendable {
    public var flows: [Flow]
    /// Where each replayed recording ended, by flow name.
    public var endings: [String: HARFlowDraft.Ending]
    /// The paths and flows that could not be read (`loadEach`); empty after `load`.
    public var problems: [FlowInputProblem] = []

    /// True for a path `simulate` replays as a recording.
    public static func isHAR(_ path: String) -> Bool { path.lowercased().hasSuffix(".har") }

    /// Loads `paths`: flow files and folders through `FlowLoader`, `.har` files replayed with `har` (required
    /// when a path is a recording). The first path or flow that cannot be read is the error.
    public static func load(_ paths: [String], har: HARReplayOptions?) throws(HARImport.Failure) -> LoadedFlows {
        let loaded = loadEach(paths, har: har)
        if let first = loaded.problems.first { throw first.failure }
        return loaded
    }

    /// Loads every flow it can: a path that names nothing, a flow file that does not read, a recording that does
    /// not replay, each becomes a problem and the rest load. With `shard`, only that part of the suite (by
    /// sorted flow path) is read at all.
    public static func loadEach(_ paths: [String], har: HARReplayOptions?, shard: FlowShard? = nil) -> LoadedFlows {
        var loaded = LoadedFlows(flows: [], endings: [:])
        var files: [String] = []
        for path in paths {
            if isHAR(path) { files.append(path); continue }
            do { files += try FlowLoader.discover([path]) } catch { loaded.problems.append(.init(path: path, failure: .config(error))) }
        }
        if let shard { files = shard.select(files) }
        var used: Set<String> = []
        for path in files {
            guard isHAR(path) else {
                do { loaded.flows.append(try FlowLoader.load(file: path)) } catch { loaded.problems.append(.init(path: path, failure: .config(error))) }
                continue
            }
            guard let har else {
                loaded.problems.append(.init(path: path, failure: .config(ConfigError(file: path, "replaying a HAR needs a policy file (--policy FILE)"))))
                continue
            }
            var name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            if name.isEmpty { name = "recording" }
            var unique = name
            var n = 2
            while used.contains(unique) {
                unique = "\(name)-\(n)"
                n += 1
            }
            used.insert(unique)
            do {
                let (flow, ending) = try replay(path, name: unique, options: har)
                loaded.flows.append(flow)
                if let ending { loaded.endings[unique] = ending }
            } catch {
                loaded.problems.append(.init(path: path, failure: error))
            }
        }
        return loaded
    }

    /// One recording as a flow named `name`, in memory.
    public static func replay(_ path: String, name: String, options: HARReplayOptions) throws(HARImport.Failure) -> (Flow, HARFlowDraft.Ending?) {
        var redaction = options.redaction
        if let text = try? String(contentsOfFile: options.policy, encoding: .utf8) { redaction?.keepQueryValues(ofURLsIn: text) }
        let writer = HARFlowWriter.Options(
            name: name, source: path,
            policyPath: URL(fileURLWithPath: options.policy).standardizedFileURL.path,
            environmentPath: options.environment.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
            expect: options.expect.rawValue)
        let importOptions = HARImport.Options(redaction: redaction, taps: options.taps, writer: writer)
        let result = try HARImport.draft(har: URL(fileURLWithPath: path), name: path, options: importOptions)
        let files = HARImport.files(result, options: importOptions)
        var bodies: [String: Data] = [:]
        for f in files.dropFirst() { bodies[f.name] = f.data }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            let flow = try FlowLoader.parse(String(decoding: files[0].data, as: UTF8.self), file: path, folder: folder, bodies: bodies)
            return (flow, result.draft.ending)
        } catch {
            throw .config(error)
        }
    }

    /// For a replayed recording whose run ended without complete or canceled, adds a `note` event just before
    /// the outcome saying where the recording ended, so the trace tells a short recording from a broken flow.
    public func annotate(_ results: [FlowResult]) -> [FlowResult] {
        results.map { result in
            guard let end = endings[result.flow.name] else { return result }
            var r = result
            for i in r.branches.indices where r.branches[i].outcome.kind != .complete && r.branches[i].outcome.kind != .canceled {
                var events = r.branches[i].events
                let at = events.lastIndex { $0.event == .outcome } ?? events.count
                let ref = at < events.count ? events[at] : events.last
                let note = TraceEvent(
                    flow: r.flow.name, branch: r.branches[i].branch, step: ref?.step ?? 1, time: ref?.time ?? 0, event: .note,
                    context: ref?.context ?? "webview", url: end.url,
                    reason: "recording ends: \(end.message) (\(end.source)); a HAR cannot hold app switches, taps or custom-scheme navigations: import it (plainview import) and add them as flow steps")
                events.insert(note, at: at)
                if at + 1 < events.count {
                    for j in (at + 1)..<events.count { events[j].step += 1 }
                }
                r.branches[i].events = events
            }
            return r
        }
    }
}

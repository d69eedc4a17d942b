// `plainview simulate FILE.har`: a recording replayed as a flow, in memory. The flow is drafted exactly as
// `plainview import` drafts it (redacted by default) and read by the same flow loader, with the page bodies
// taken from memory instead of a folder: import → simulate gives the same run as replaying the HAR.
import Foundation
import PlainviewConfig
import FlowImport

/// Flows to run: flow files, flow folders and recordings, in the order named.
public struct LoadedFlows: Sendable {
    public var flows: [Flow]
    /// Where each replayed recording ended, by flow name.
    public var endings: [String: HARFlowDraft.Ending]
    /// The paths and flows that could not be read (`loadEach`); empty after `load`.
    public var problems: [FlowInputProblem] = []
    /// Each flow's position in the whole suite (the flow files and recordings the paths name, in the order an
    /// unsplit run takes them, 0-based), in the order of `flows`: a shard's flows keep their place in the suite.
    public var positions: [Int] = []
    /// How many flow files and recordings the paths name in all, before `--shard` picks its part.
    public var suiteSize = 0

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
            do { files += try FlowLoader.discover([path]) } catch {
                loaded.problems.append(.init(path: path, failure: .config(error)))
            }
        }
        loaded.suiteSize = files.count
        // A recording's flow name is unique over the whole suite, so a shard names it as the unsplit run does.
        let names = har == nil ? [:] : recordingNames(files)
        for position in shard?.positions(files) ?? Array(files.indices) {
            let path = files[position]
            guard isHAR(path) else {
                do {
                    loaded.flows.append(try FlowLoader.load(file: path, readingPagesWhenRun: true))
                    loaded.positions.append(position)
                } catch {
                    loaded.problems.append(.init(path: path, failure: .config(error), position: position))
                }
                continue
            }
            guard let har, let unique = names[position] else {
                loaded.problems.append(
                    .init(
                        path: path,
                        failure: .config(ConfigError(file: path, "replaying a HAR needs a policy file (--policy FILE)")),
                        position: position))
                continue
            }
            do {
                let (flow, ending) = try replay(path, name: unique, options: har)
                loaded.flows.append(flow)
                loaded.positions.append(position)
                if let ending { loaded.endings[unique] = ending }
            } catch {
                loaded.problems.append(.init(path: path, failure: error, position: position))
            }
        }
        return loaded
    }

    /// Each recording's flow name, by position in `files`: its file name without `.har` (`recording` when that
    /// is empty), with `-2`, `-3` … after a name already taken by an earlier recording.
    private static func recordingNames(_ files: [String]) -> [Int: String] {
        var names: [Int: String] = [:]
        var used: Set<String> = []
        for (position, path) in files.enumerated() where isHAR(path) {
            var name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            if name.isEmpty { name = "recording" }
            var unique = name
            var n = 2
            while used.contains(unique) {
                unique = "\(name)-\(n)"
                n += 1
            }
            used.insert(unique)
            names[position] = unique
        }
        return names
    }

    /// One recording as a flow named `name`, in memory.
    public static func replay(_ path: String, name: String, options: HARReplayOptions) throws(HARImport.Failure) -> (
        Flow, HARFlowDraft.Ending?
    ) {
        var redaction = options.redaction
        if let text = try? ConfigNode.readText(path: options.policy) { redaction?.keepQueryValues(ofURLsIn: text) }
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
            let flow = try FlowLoader.parse(
                String(decoding: files[0].data, as: UTF8.self), file: path, folder: folder, bodies: bodies)
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
                    reason:
                        "recording ends: \(end.message) (\(end.source)); a HAR cannot hold app switches, taps or custom-scheme navigations: import it (plainview import) and add them as flow steps"
                )
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

// `plainview record`: a real checkout session, run by a real engine as the host app's web view against the real
// servers, becomes a flow folder. The session is an ordinary engine-mode run of a flow with no recorded pages whose
// network is live (LiveRecording): the policy decides every navigation, the OS routes app URLs, the `--step`s are
// what the user does. What the servers answered becomes the flow's pages through the import's own drafting,
// redaction and writing; the outcome becomes `expect`, and the written flow is replayed in the model and in the
// engine before anything is written, so the folder says where the model cannot follow (`modelOutcome`).
import FlowImport
import FlowSimulator
import Foundation
import PlainviewConfig

public enum Recorder {
    public struct Request: Sendable {
        /// The payment page the host app loads first.
        public var url: String
        /// The host app's policy and environment files (paths as the user gave them).
        public var policy: String
        public var environment: String?
        /// What the user does, each written as in a flow's `steps:` (`tap: Pay`, `app: BankID complete`).
        public var steps: [String]
        /// The flow folder to write (nil: nothing is written), and its name.
        public var out: String?
        public var name: String?
        /// A committed flow folder of the same checkout to compare the recording with (`--diff`).
        public var diff: String?
        public var force: Bool
        /// nil: not redacted (`--no-redact`).
        public var redaction: RedactionConfig?
        public var strict: Bool

        /// The flow's default name: its folder's.
        var folderName: String { URL(fileURLWithPath: out ?? diff ?? "recording").lastPathComponent }

        public init(
            url: String, policy: String, environment: String? = nil, steps: [String] = [], out: String?,
            name: String? = nil, diff: String? = nil, force: Bool = false, redaction: RedactionConfig? = .default,
            strict: Bool = false
        ) {
            self.diff = diff
            self.url = url
            self.policy = policy
            self.environment = environment
            self.steps = steps
            self.out = out
            self.name = name
            self.force = force
            self.redaction = redaction
            self.strict = strict
        }
    }

    public struct Summary: Sendable {
        /// The live session.
        public var session: SimulationReport
        public var requests: Int
        public var documents: Int
        /// Wall time of the session, and the part of it spent waiting for the servers.
        public var seconds: Double
        public var networkSeconds: Double
        /// The files written (flow.yaml first).
        public var files: [String]
        public var redaction: RedactionReport?
        /// The written flow replayed: the model's run and the engine's.
        public var model: SimulationReport
        public var replay: SimulationReport
        /// Resource requests (scripts, images, XHR) that got no answer, one line each.
        public var failures: [String]
        /// `--diff`: what changed since the committed flow (empty: nothing).
        public var drift: [FlowDrift.Change]?
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Bad input (exit 64): the message names the flag, file or key.
        case input(String)
        /// `strict`: something that looks like a secret is left; nothing was written.
        case residue(String)
        /// A server did not answer a page the session needed; nothing was written.
        case unanswered(String)
        public var description: String {
            switch self {
            case .input(let m), .residue(let m), .unanswered(let m): m
            }
        }
    }

    /// The live session's flow: the policy and environment, the first page, the user's steps, no pages.
    public static func sessionFlow(_ r: Request) throws(Failure) -> Flow {
        var y = YAMLEmitter()
        y.pair("name", .string(r.name ?? r.folderName))
        y.pair("policy", .string(URL(fileURLWithPath: r.policy).standardizedFileURL.path))
        if let e = r.environment { y.pair("environment", .string(URL(fileURLWithPath: e).standardizedFileURL.path)) }
        y.pair("start", .string(r.url))
        var flow: Flow
        do {
            flow = try FlowLoader.parse(y.text, file: "plainview record", folder: FileManager.default.currentDirectoryPath)
        } catch {
            throw .input(error.description.replacingOccurrences(of: "plainview record:", with: "record:"))
        }
        var steps: [FlowStep] = []
        for (i, text) in r.steps.enumerated() {
            let name = "--step \(i + 1)"
            let step: FlowStep
            do {
                step = try FlowLoader.step(text, name: name)
            } catch {
                throw .input(error.description)
            }
            if case .app(let app, _) = step, flow.apps[app] == nil {
                throw .input("\(name): step '\(text)' names an app that is not in the environment (--env)")
            }
            steps.append(step)
        }
        flow.steps = steps
        return flow
    }

    /// Records the session in `engine` with `network` as the servers, and writes the flow folder (atomically; with
    /// `strict`, not at all when something that looks like a secret is left).
    public static func record(_ r: Request, engine: any WebEngine, network: LiveRecording) throws(Failure) -> Summary {
        var flow = try sessionFlow(r)
        flow.liveNetwork = network
        let began = Date()
        let session = Simulator.run(flow, engine: engine).branches[0]
        let seconds = Date().timeIntervalSince(began)
        let exchanges = network.recorded
        let unanswered = exchanges.compactMap { x -> String? in
            guard case .document = x.request.kind, case .failure(let f) = x.result else { return nil }
            return "  \(x.request.method) \(x.request.url): \(f.message)"
        }
        if !unanswered.isEmpty {
            throw .unanswered(
                (["\(unanswered.count) page request(s) got no answer from the server; nothing was written:"] + unanswered)
                    .joined(separator: "\n"))
        }

        var log = network.harLog(creator: "plainview record (\(engine.name))")
        var redaction = r.redaction
        if let text = try? ConfigNode.readText(path: r.policy) { redaction?.keepQueryValues(ofURLsIn: text) }
        // Without --out, the flow is drafted as if it were beside the flow it is compared with.
        let folder = URL(fileURLWithPath: r.out ?? r.diff ?? ".")
        var writer = HARFlowWriter.Options(
            name: r.name ?? r.folderName, source: r.url,
            policyPath: HARFlowWriter.relativePath(from: folder, to: r.policy),
            environmentPath: r.environment.map { HARFlowWriter.relativePath(from: folder, to: $0) },
            platform: flow.policy.platform.rawValue, expect: session.outcome.kind.rawValue)
        writer.recorded = .init(engine: engine.name, ending: "\(session.outcome) · \(session.hops) hops")
        let options = HARImport.Options(
            redaction: redaction, writer: writer, strict: r.strict)
        var result: HARImport.Result
        do {
            var o = options
            o.steps = flow.steps.map(draftStep)
            result = try HARImport.draft(log: &log, name: r.url, options: o)
        } catch {
            throw .input("the session recorded nothing a flow can hold: \(error.description)")
        }
        var files = HARImport.files(result, options: options)

        // Replay what would be written, before writing it: in the model, and in the engine it was recorded with.
        let model = try replay(files, folder: folder, engine: nil)
        if model.outcome.kind != session.outcome.kind {
            writer.modelOutcome = model.outcome.kind.rawValue
            var o = options
            o.writer = writer
            files = HARImport.files(result, options: o)
        }
        let replayed = try replay(files, folder: folder, engine: engine)
        var drift: [FlowDrift.Change]?
        if let committed = r.diff {
            let loaded: [Flow]
            do {
                loaded = try FlowLoader.load([committed])
            } catch {
                throw .input("--diff \(committed): \(error.description)")
            }
            guard let old = loaded.first else { throw .input("--diff \(committed): no flow there") }
            drift = FlowDrift.compare(
                old: old, new: try drafted(files, folder: folder), oldOutcome: old.expect.outcome, newOutcome: session.outcome)
        }

        result.residue = HARImport.residue(in: files)
        if r.strict, !result.residue.isEmpty {
            throw .residue(HARImport.Failure.residue(result.residue).description)
        }
        if r.out != nil {
            do {
                try HARFlowWriter.write(files, to: folder, force: r.force)
            } catch {
                throw .input(error.description)
            }
        }
        return Summary(
            session: session, requests: exchanges.count,
            documents: exchanges.filter { if case .document = $0.request.kind { true } else { false } }.count,
            seconds: seconds, networkSeconds: exchanges.reduce(0) { $0 + $1.milliseconds } / 1000,
            files: files.map(\.name), redaction: result.report, model: model, replay: replayed,
            failures: exchanges.compactMap { x in
                if case .failure(let f) = x.result { return "\(x.request.method) \(x.request.url): \(f.message)" }
                return nil
            }, drift: drift)
    }

    /// Runs the flow `files` would write (read from memory, as if it were in `folder`).
    static func replay(
        _ files: [(name: String, data: Data)], folder: URL, engine: (any WebEngine)?
    ) throws(Failure) -> SimulationReport {
        Simulator.run(try drafted(files, folder: folder), engine: engine).branches[0]
    }

    /// The flow `files` would write, read from memory as if it were in `folder`.
    static func drafted(_ files: [(name: String, data: Data)], folder: URL) throws(Failure) -> Flow {
        guard let yaml = files.first(where: { $0.name == "flow.yaml" }) else { throw .input("no flow.yaml drafted") }
        let bodies = Dictionary(files.map { ($0.name, $0.data) }, uniquingKeysWith: { a, _ in a })
        do {
            return try FlowLoader.parse(
                String(decoding: yaml.data, as: UTF8.self), file: folder.appendingPathComponent("flow.yaml").path,
                folder: folder.path, bodies: bodies)
        } catch {
            throw .input("the drafted flow does not load: \(error.description)")
        }
    }

    /// A step of the flow as the draft writes it.
    static func draftStep(_ step: FlowStep) -> HARFlowDraft.Step {
        switch step {
        case .tap(let text, let url): .tapText(text ?? url ?? "")
        case .accept: .accept
        case .decline: .decline
        case .app(let name, let outcome): .app(name: name, outcome: outcome.rawValue)
        case .switchToApp: .switchToApp
        case .type(let field, let text): .type(field: field, text: text)
        }
    }
}

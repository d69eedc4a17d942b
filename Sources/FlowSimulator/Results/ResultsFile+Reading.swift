// Reading a results file (`simulate --results FILE`) back: its format and version first, then every key, then
// what must hold between them. Whatever is wrong is a `ResultsFileError` naming the file and the key.
import Foundation
import PlainviewSupport

extension ResultsFile: Codable {
    private enum CodingKeys: String, CodingKey {
        case format, version, plainview, engine, runs, explore, shard, paths, suiteSize, problems, flows
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        plainview = try c.decode(String.self, forKey: .plainview)
        engine = try c.decode(String.self, forKey: .engine)
        runs = try c.decode([String].self, forKey: .runs)
        explore = try c.decode(Bool.self, forKey: .explore)
        shard = try c.decodeIfPresent(FlowShard.self, forKey: .shard)
        paths = try c.decode([String].self, forKey: .paths)
        suiteSize = try c.decodeCount(forKey: .suiteSize)
        problems = try c.decode([FlowInputProblem].self, forKey: .problems)
        flows = try c.decode([RecordedFlow].self, forKey: .flows)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.format, forKey: .format)
        try c.encode(Self.version, forKey: .version)
        try c.encode(plainview, forKey: .plainview)
        try c.encode(engine, forKey: .engine)
        try c.encode(runs, forKey: .runs)
        try c.encode(explore, forKey: .explore)
        try c.encodeIfPresent(shard, forKey: .shard)
        try c.encode(paths, forKey: .paths)
        try c.encode(suiteSize, forKey: .suiteSize)
        try c.encode(problems, forKey: .problems)
        try c.encode(flows, forKey: .flows)
    }

    /// Just what says which file this is: read first, so a file of another kind or version is named as such.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
        var plainview: String?
    }

    /// Reads the results file at `path` (named so in errors).
    public static func read(path: String) throws(ResultsFileError) -> ResultsFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            throw ResultsFileError(
                file: path,
                !exists
                    ? "no such file; expected a results file written by plainview simulate --results FILE"
                    : isFolder.boolValue
                        ? "a folder; expected a results file written by plainview simulate --results FILE"
                        : "cannot be read: \(error.localizedDescription)")
        }
        return try decode(data, file: path)
    }

    /// Reads a results file's text; `file` names it in errors.
    public static func decode(_ data: Data, file: String) throws(ResultsFileError) -> ResultsFile {
        let expected = "expected a results file written by plainview simulate --results FILE"
        if let syntax = JSONSyntax.firstError(in: [UInt8](data)) {
            throw ResultsFileError(file: file, "not JSON: \(syntax); \(expected)")
        }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw ResultsFileError(file: file, "expected a JSON object: \(expected)")
        }
        guard header.format == format else {
            throw ResultsFileError(
                file: file, key: "format",
                "expected \"\(format)\" (\(expected)), found \(header.format.map { "\"\($0)\"" } ?? "no format key")")
        }
        guard let version = header.version else {
            throw ResultsFileError(file: file, key: "version", "missing: expected the format version (\(Self.version))")
        }
        guard version == Self.version else {
            let writer = header.plainview.map { " (written by plainview \($0))" } ?? ""
            throw ResultsFileError(
                file: file, key: "version",
                "results format version \(version)\(writer); this plainview reads version \(Self.version): merge with the plainview release that wrote the shards"
            )
        }
        let results: ResultsFile
        do { results = try JSONDecoder().decode(ResultsFile.self, from: data) } catch let error as DecodingError {
            let (key, message) = describe(error)
            throw ResultsFileError(file: file, key: key, message)
        } catch {
            throw ResultsFileError(file: file, "does not read: \(error)")
        }
        try results.validate(file: file)
        return results
    }

    /// What must hold between the keys: runs that fit the engine mode, flows with one result per run, and
    /// positions inside the suite, each taken once.
    func validate(file: String) throws(ResultsFileError) {
        func fail(_ key: String, _ message: String) -> ResultsFileError { ResultsFileError(file: file, key: key, message) }
        if engine.hasPrefix("compare") {
            let expected = engine == "compare" ? ["model", "chromium", "webkit"] : ["model", String(engine.dropFirst(8))]
            guard runs == expected else {
                throw fail(
                    "runs",
                    "expected the model's run then each engine's (\(expected.joined(separator: ", "))) with engine \(engine)")
            }
        } else {
            guard runs == [engine] else {
                throw fail("runs", "expected [\"\(engine)\"] (the one run of engine mode \(engine)), found \(runs)")
            }
        }
        guard !paths.isEmpty else { throw fail("paths", "expected the paths the run was given, found none") }
        var taken: [Int: String] = [:]
        func take(_ position: Int, _ key: String) throws(ResultsFileError) {
            guard position < suiteSize else {
                throw fail(key, "position \(position) is outside the suite (suiteSize \(suiteSize): 0 to \(suiteSize - 1))")
            }
            if let other = taken[position] { throw fail(key, "position \(position) is taken twice (also by \(other))") }
            taken[position] = key
        }
        for (i, p) in problems.enumerated() {
            if let position = p.position { try take(position, "problems[\(i)].position") }
        }
        for (i, f) in flows.enumerated() {
            try take(f.position, "flows[\(i)].position")
            guard f.runs.count == runs.count else {
                throw fail(
                    "flows[\(i)].runs",
                    "expected \(runs.count) run\(runs.count == 1 ? "" : "s") (\(runs.joined(separator: ", "))), found \(f.runs.count)"
                )
            }
            if let j = f.runs.firstIndex(where: { $0.flow.name != f.runs[0].flow.name }) {
                throw fail(
                    "flows[\(i)].runs[\(j)].flow",
                    "expected '\(f.runs[0].flow.name)' (every run of one flow names it), found '\(f.runs[j].flow.name)'")
            }
        }
    }

    /// A decoding error as the key it is about and what was expected there.
    static func describe(_ error: DecodingError) -> (key: String?, message: String) {
        func path(_ keys: [any CodingKey]) -> String? {
            var out = ""
            for k in keys {
                if let i = k.intValue, k.stringValue == "Index \(i)" || k.stringValue == "\(i)" {
                    out += "[\(i)]"
                } else {
                    out += (out.isEmpty ? "" : ".") + k.stringValue
                }
            }
            return out.isEmpty ? nil : out
        }
        func name(_ type: Any.Type) -> String {
            switch type {
            case is Int.Type: "a whole number"
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            case is [Any].Type: "an array"
            case is [String: Any].Type: "an object"
            default: "\(type)"
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "missing: expected this key")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected \(name(type)), found null")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(name(type))")
        case .dataCorrupted(let context):
            let key = path(context.codingPath)
            // A word that is not one of an enumeration's: say which words are.
            if context.debugDescription.hasPrefix("Cannot initialize"), let last = context.codingPath.last?.stringValue,
                let words = ["kind": Outcome.Kind.allCases.map(\.rawValue), "event": TraceEventKind.allCases.map(\.rawValue)][
                    last]
            {
                return (key, "expected one of \(words.joined(separator: ", "))")
            }
            return (key, context.debugDescription)
        @unknown default:
            return (nil, "does not read: \(error)")
        }
    }
}

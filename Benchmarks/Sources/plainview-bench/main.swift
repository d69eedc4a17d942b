// plainview-bench: measures Plainview against the targets of the benchmark issue and against its peers,
// side by side in one run. Its own package (Benchmarks/Package.swift), release mode only: `swift build -c release`
// at the repository root (the CLI and the WebKit driver the process and engine groups run), then
// `cd Benchmarks && swift run -c release plainview-bench [options]`.
//   --quick              shorter rounds (for a smoke run; figures are noisier)
//   --only NAME[,NAME]   run only these groups: policy, goodlist, extract, lxml, dense, simulate, process, shard, goodlist-load,
//                        import, engine, record
//   --write-corpus DIR   write the generated pages and flows to DIR and exit
//   --write-recordings DIR  write the import group's generated HAR files to DIR and exit
//   --profile-scan FILE [floor] [N]  scan FILE N times in process (with `floor`: the empty-callback parse), for callgrind
//   --peak-rss OUT EXE ARG…  (internal) run EXE, write "status maxRSSBytes seconds" to OUT (see Child.peak)
import Foundation
import NavigationPolicy
import PageScan

struct Options {
    var quick = false
    var only: Set<String>? = nil
    var writeCorpus: String? = nil
    var writeRecordings: String? = nil

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var it = args.makeIterator()
        while let a = it.next() {
            switch a {
            case "--quick": o.quick = true
            case "--only": o.only = Set((it.next() ?? "").split(separator: ",").map(String.init))
            case "--write-corpus": o.writeCorpus = it.next()
            case "--write-recordings": o.writeRecordings = it.next()
            case "-h", "--help":
                print(
                    "usage: plainview-bench [--quick] [--only policy,goodlist,extract,lxml,dense,simulate,process,shard,goodlist-load,import,engine,record] [--write-corpus DIR] [--write-recordings DIR]"
                )
                exit(0)
            default:
                FileHandle.standardError.write(Data("plainview-bench: unknown option \(a)\n".utf8))
                exit(64)
            }
        }
        return o
    }

    func wants(_ group: String) -> Bool { only?.contains(group) ?? true }
    var seconds: Double { quick ? 0.2 : 1.0 }
}

if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "--peak-rss" {
    exit(Child.reportPeak(output: CommandLine.arguments[2], CommandLine.arguments[3], Array(CommandLine.arguments.dropFirst(4))))
}

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "--profile-scan" {
    let rest = CommandLine.arguments.dropFirst(3)
    exit(
        ExtractBench.profileOnce(
            CommandLine.arguments[2], floor: rest.contains("floor"),
            repeats: rest.compactMap { Int($0) }.first ?? 1))
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
// The engine group's WebKit driver: the one the root package's release build put beside `plainview`.
if ProcessInfo.processInfo.environment["PLAINVIEW_WEBKIT_DRIVER"] == nil, let driver = Paths.sibling("plainview-webkit") {
    setenv("PLAINVIEW_WEBKIT_DRIVER", driver, 1)
}
nonisolated(unsafe) var metrics: [Metric] = []
func record(_ m: Metric) {
    metrics.append(m)
    Report.emit(m)
}

#if DEBUG
FileHandle.standardError.write(
    Data("plainview-bench: this is a debug build; figures are meaningless. Use `swift run -c release plainview-bench`.\n".utf8))
#endif

if let dir = options.writeRecordings {
    do {
        let names = try ImportBench.writeRecordings(to: URL(fileURLWithPath: dir))
        print("wrote \(names.joined(separator: ", ")) to \(dir)")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("plainview-bench: cannot write the recordings to \(dir): \(error)\n".utf8))
        exit(64)
    }
}

if let dir = options.writeCorpus {
    do {
        try CorpusFiles.write(to: URL(fileURLWithPath: dir))
        print("wrote \(Corpus.pageSizes.count) pages and \(Corpus.generatedFlowCount) flows (flows/) to \(dir)")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("plainview-bench: cannot write the corpus to \(dir): \(error)\n".utf8))
        exit(64)
    }
}

if options.wants("policy") { PolicyBench.run(seconds: options.seconds).forEach(record) }
if options.wants("goodlist") { GoodlistBench.run(seconds: options.seconds).forEach(record) }
if options.wants("extract") || options.wants("lxml") {
    ExtractBench.run(seconds: options.seconds, extraction: options.wants("extract"), lxml: options.wants("lxml")).forEach(record)
}
if options.wants("dense") { DenseBench.run(quick: options.quick).forEach(record) }
if options.wants("simulate") { SimulateBench.run(seconds: options.seconds).forEach(record) }
if options.wants("process") { ProcessBench.run(quick: options.quick).forEach(record) }
if options.wants("shard") { ShardBench.run(quick: options.quick).forEach(record) }
if options.wants("goodlist-load") { GoodlistLoadBench.run(quick: options.quick).forEach(record) }
if options.wants("import") { ImportBench.run(quick: options.quick).forEach(record) }
if options.wants("engine") { EngineBench.run(quick: options.quick).forEach(record) }
if options.wants("record") { RecordBench.run(quick: options.quick).forEach(record) }

Report.table(metrics, machine: Report.machine)

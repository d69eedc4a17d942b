// Deterministic, bounded fuzzing of the HAR reader: byte-level mutations of the HAR fixtures (fixed seeds).
// Properties: nothing traps; a rejection is a HARError with a message; reading is a pure function of the bytes.
import Foundation
import Testing
import TestSupport
@testable import FlowImport


@Suite("Fuzz: HAR reader")
struct HARFuzzTests {
    static let seeds: [[UInt8]] = {
        let dir = Project.path("Tests/FlowImportTests/Fixtures/har")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return files.sorted().filter { $0.hasSuffix(".har") || $0.hasSuffix(".json") }.compactMap {
            try? Array(Data(contentsOf: dir.appendingPathComponent($0)))
        }.filter { $0.count < 200_000 }
    }()

    static let dictionary = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "null", "true", "-1", "1e999", "\"log\"",
        "\"entries\"", "\"request\"", "\"response\"", "\"url\"", "\"status\"", "\"headers\"", "\"content\"", "\"text\"",
        "\"encoding\"", "\"base64\"", "\"mimeType\"", "\"redirectURL\"", "\"startedDateTime\"", "\"pageref\"",
    ]

    @Test(arguments: [UInt64(1), 2])
    func mutatedHARFilesAreReadOrRejectedWithAMessage(seed: UInt64) {
        guard !Self.seeds.isEmpty else { Issue.record("no HAR fixtures found"); return }
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var read = 0
        for _ in 0..<300 {
            let bytes = fuzz.mutator.mutate(
                fuzz.rng.pick(Self.seeds), other: fuzz.rng.pick(Self.seeds), rng: &fuzz.rng, maxSteps: 3, maxLength: 300_000)
            do {
                let log = try HARReader().read(data: Data(bytes))
                read += 1
                if let again = try? HARReader().read(data: Data(bytes)), again.entries.count != log.entries.count {
                    fuzz.findings.record("reading twice differs", input: String(decoding: bytes.prefix(300), as: UTF8.self))
                }
            } catch {
                if error.message.isEmpty || error.description.isEmpty {
                    fuzz.findings.record("HAR error without a message", input: String(decoding: bytes.prefix(300), as: UTF8.self))
                }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(read > 10, "too few mutants are readable (\(read))")
    }
}

import Foundation
import Testing

@testable import FlowImport

/// The residue check runs on all cores (PlainviewSupport's Threads.map): what it finds, and in which order, must
/// be what one thread scanning file after file, block after block, finds.
@Suite struct ResidueOrderTests {
    /// A flow.yaml of several blocks with secrets left in some pages, and page files with secrets of their own:
    /// the findings come file by file in the files' order, and within flow.yaml block by block, each block's
    /// as if it were scanned whole.
    @Test func theResidueOfManyFilesIsListedAsOneThreadWouldList() throws {
        var yaml = "name: big\npages:"
        for i in 0..<12_000 {
            yaml += "\n  - url: \"https://shop.example.com/p\(i)\"\n    file: \"\(i).html\""
            if i % 997 == 0 { yaml += "  # card 4111 1111 1111 \(1000 + i % 9000)" }
            if i % 1_501 == 0 { yaml += "\n    headers: {\"Authorization\": \"Bearer abcdefghijklmnop\(i)\"}" }
        }
        yaml += "\n"
        let flow = Data(yaml.utf8)
        #expect(HARImport.blocks(of: flow, splittingAt: HARImport.pageItem).count > 2, "needs several blocks")
        var files: [(name: String, data: Data)] = [("flow.yaml", flow)]
        for i in 0..<40 {
            let body = i % 3 == 0 ? "<p>mail jane.doe\(i)@mail.test, card 5500 0000 0000 \(1000 + i)</p>" : "<p>nothing \(i)</p>"
            files.append(("\(i).html", Data(body.utf8)))
        }
        var expected: [SecretResidue.Finding] = []
        for f in files {
            let marker = f.name == "flow.yaml" ? HARImport.pageItem : nil
            for (range, line) in HARImport.blocks(of: f.data, splittingAt: marker) {
                expected += SecretResidue.scan(String(decoding: f.data[range], as: UTF8.self), file: f.name, firstLine: line)
            }
        }
        let found = HARImport.residue(in: files)
        #expect(found.count > 20, "the planted secrets are found: \(found.count)")
        #expect(Set(found.map(\.file)).count > 10)
        #expect(found == expected)
    }
}

/// Drafting judges navigations on every core, in runs of consecutive ones: the steps and the unexplained
/// navigations must be those of one thread judging one navigation after another.
@Suite struct InferredStepsOrderTests {
    @Test func theStepsOfAThousandNavigationsDoNotDependOnTheThreads() throws {
        let folder = HARFixture.url("")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".har") }.sorted()
        var entries: [HAREntry] = []
        for _ in 0..<12 {
            for name in names {
                guard let log = try? HARFixture.read(name) else { continue } // the malformed fixtures
                entries += log.entries
            }
        }
        for i in entries.indices { entries[i].fileIndex = i } // one path per entry, as in one recording
        let serial = HARFlowBuilder.inferredSteps(entries, threads: 1)
        #expect(serial.steps.count > 100, "\(serial.steps.count) steps")
        #expect(serial.steps.contains { if case .type = $0 { true } else { false } })
        #expect(!serial.unexplained.isEmpty)
        for threads in [2, 3, 8] {
            let parallel = HARFlowBuilder.inferredSteps(entries, threads: threads)
            #expect(parallel.steps == serial.steps)
            #expect(parallel.unexplained == serial.unexplained)
        }
    }
}

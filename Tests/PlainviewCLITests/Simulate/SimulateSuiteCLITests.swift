import Foundation
import Testing
import TestSupport

/// Black-box: `plainview simulate` over a suite of flows — broken flows beside good ones, taps on buttons,
/// JUnit times, `--shard` and `--report`.
@Suite struct SimulateSuiteCLITests {
    static let policy = SimulateCLITests.policy

    /// A flow that completes by itself after a 5 s refresh (5.05 s simulated, far less on the wall).
    static let completes =
        policy + """
            pages:
              - url: https://shop.example.com/pay
                body: "<meta http-equiv=refresh content='5; url=/complete'>"
            expect: {outcome: complete}

            """

    /// A flow that expects canceled but completes.
    static let fails =
        policy + """
            pages:
              - url: https://shop.example.com/pay
                location: https://shop.example.com/complete
            expect: {outcome: canceled}

            """

    func folder(_ flows: [String: String]) throws -> URL { try Project.temporaryFlows(flows) }

    // MARK: robust folder runs

    @Test func aBrokenFlowIsAnInputErrorForThatFlowAndTheOthersStillRun() throws {
        let dir = try folder([
            "a-good": Self.completes,
            "b-broken": Self.policy + "pages:\n  - url: https://shop.example.com/pay\n    stauts: 200\n",
            "c-good": Self.completes,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", dir.path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("error: \(dir.path)/b-broken/flow.yaml:8: pages[0].stauts: unknown key 'stauts'"), "\(r)")
        #expect(r.stdout.contains("PASS  a-good"), "\(r)")
        #expect(r.stdout.contains("PASS  c-good"), "\(r)")
        #expect(r.stdout.contains("ERROR \(dir.path)/b-broken/flow.yaml  input error: "), "\(r)")
        #expect(r.stdoutLines.last == "2 flows: 2 passed, 0 failed, 1 input error", "\(r)")
    }

    @Test func exitCodesInputErrorsBeatFailuresBeatSuccess() throws {
        let dir = try folder(["good": Self.completes, "failing": Self.fails, "broken": "nonsense: [\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try CLI.run(["simulate", dir.path])
        #expect(all.status == 64, "\(all)")
        #expect(all.stdout.contains("FAIL  failing"), "\(all)")
        let failing = try CLI.run([
            "simulate", dir.appendingPathComponent("good").path, dir.appendingPathComponent("failing").path,
        ])
        #expect(failing.status == 1, "\(failing)")
        let good = try CLI.run(["simulate", dir.appendingPathComponent("good").path])
        #expect(good.status == 0, "\(good)")
        let missing = try CLI.run(["simulate", dir.appendingPathComponent("good").path, "no/such/flow"])
        #expect(missing.status == 64, "\(missing)")
        #expect(missing.stdout.contains("PASS  good"), "\(missing)")
        #expect(missing.stderr.contains("no/such/flow: no such file or folder"), "\(missing)")
    }

    @Test func jsonOutputListsTheInputError() throws {
        let dir = try folder(["good": Self.completes, "broken": Self.policy + "start: ftp://x\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", "--json", dir.path])
        #expect(r.status == 64, "\(r)")
        #expect(
            r.stdoutLines.contains {
                $0.hasPrefix("{\"file\":\"\(dir.path)/broken/flow.yaml\",\"inputError\":\"")
                    && $0.contains("start: expected an absolute http(s) URL")
            }, "\(r)")
        #expect(r.stdoutLines.contains { $0.contains("\"flow\":\"good\"") && $0.contains("\"passed\":true") }, "\(r)")
    }

    // MARK: taps on buttons

    static let buttons =
        policy + """
            pages:
              - url: https://shop.example.com/pay
                body: |
                  <form action="/approve" method="post"><input type="hidden" name="tx" value="7">
                    <button name="choice" value="yes">Godkänn</button></form>
                  <form action="/card" method="get"><input type="submit" name="pay" value="Betala med kort"></form>
                  <form action="/img" method="get"><input type="image" alt="Swish" src="swish.png"></form>
                  <button type="button" aria-label="Avbryt" onclick="location.href='/cancel'">✕</button>
              - url: https://shop.example.com/approve
                method: POST
                location: https://shop.example.com/complete
              - url: https://shop.example.com/card?pay=Betala+med+kort
                location: https://shop.example.com/complete
              - url: https://shop.example.com/img?x=0&y=0
                location: https://shop.example.com/complete

            """

    @Test(arguments: [
        ("Godkänn", "complete", "POST https://shop.example.com/approve"),
        ("betala med kort", "complete", "GET https://shop.example.com/card?pay=Betala+med+kort"),
        ("Swish", "complete", "GET https://shop.example.com/img?x=0&y=0"),
        ("Avbryt", "canceled", "GET https://shop.example.com/cancel"),
    ])
    func aTapNamesAButtonOrSubmitInputByItsText(_ text: String, _ outcome: String, _ navigation: String) throws {
        let dir = try folder(["buttons": Self.buttons + "steps: [{tap: \(text)}]\nexpect: {outcome: \(outcome)}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", "-v", dir.path])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains(navigation), "\(r)")
    }

    @Test func aFailedTapListsWhatCouldBeTapped() throws {
        let dir = try folder(["buttons": Self.buttons + "steps: [{tap: Godkänd}]\nexpect: {outcome: complete}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", dir.path])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout.contains(
                "nothing on https://shop.example.com/pay matches; what can be tapped: button 'Godkänn', button 'Betala med kort', button 'Swish', button '✕'"
            ), "\(r)")
    }

    // MARK: JUnit

    @Test func junitTimeIsWallTimeAndTheSimulatedTimeIsAProperty() throws {
        let dir = try folder(["slow-refresh": Self.completes])
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml").path
        let r = try CLI.run(["simulate", "--junit", junit, dir.appendingPathComponent("slow-refresh").path])
        #expect(r.status == 0, "\(r)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<property name=\"simulatedTime\" value=\"5.050\"/>"), "\(xml)")
        let testcase = try #require(xml.split(separator: "\n").first { $0.contains("<testcase ") })
        let time = try #require(testcase.firstRange(of: "time=\"").map { testcase[$0.upperBound...].prefix { $0 != "\"" } })
        let seconds = try #require(Double(time))
        #expect(seconds < 5.0, "wall time, not the 5.05 s simulated: \(testcase)")
        #expect(seconds >= 0)
    }

    @Test func junitHasAnErrorForAFlowThatDoesNotRead() throws {
        let dir = try folder(["good": Self.completes, "broken": Self.policy + "nmae: x\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml").path
        let r = try CLI.run(["simulate", "--junit", junit, dir.path])
        #expect(r.status == 64, "\(r)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("errors=\"1\""), "\(xml)")
        #expect(xml.contains("<error message=\"\(dir.path)/broken/flow.yaml:6: nmae: unknown key"), "\(xml)")
        #expect(xml.contains("<testsuite name=\"good\""), "\(xml)")
    }

    // MARK: --shard

    @Test func shardsSplitTheSuiteBySortedPathWithoutOverlap() throws {
        let names = ["e", "a", "d", "b", "c"]
        let dir = try folder(Dictionary(uniqueKeysWithValues: names.map { ($0, Self.completes) }))
        defer { try? FileManager.default.removeItem(at: dir) }
        func ran(_ shard: String) throws -> [String] {
            let r = try CLI.run(["simulate", "--shard", shard, dir.path])
            #expect(r.status == 0, "\(r)")
            return r.stdoutLines.filter { $0.hasPrefix("PASS") }.map {
                String($0.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        #expect(try ran("1/2") == ["a", "c", "e"])
        #expect(try ran("2/2") == ["b", "d"])
        #expect(try ran("1/1") == ["a", "b", "c", "d", "e"])
        #expect(try ran("3/3") == ["c"])
        // A shard with no flows runs nothing and passes.
        let empty = try CLI.run(["simulate", "--shard", "7/7", dir.path])
        #expect(empty.status == 0, "\(empty)")
        #expect(empty.stdoutLines.last == "0 flows: 0 passed, 0 failed", "\(empty)")
    }

    @Test(arguments: [
        ("0/2", "expected 1 ≤ I ≤ N"), ("3/2", "expected 1 ≤ I ≤ N"), ("2", "expected I/N"), ("a/b", "expected I/N"),
        ("1/0", "expected 1 ≤ I ≤ N"), ("-1/2", "expected 1 ≤ I ≤ N"), ("1/2/3", "expected I/N"),
    ])
    func aBadShardIsAUsageErrorSayingWhatIsExpected(_ shard: String, _ message: String) throws {
        let r = try CLI.run(["simulate", "--shard=\(shard)", "Pages"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("'--shard <shard>': \(message)"), "\(r)")
        #expect(r.stderr.contains("'\(shard)'"), "\(r)")
    }
}

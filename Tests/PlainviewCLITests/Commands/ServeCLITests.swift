import Foundation
import Synchronization
import Testing
import TestSupport

/// `plainview serve` running in the background for one test.
private final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let out = Pipe(), err = Pipe()
    var url = ""
    /// Its stderr, read as it is written: a server whose log nobody reads blocks once the pipe holds 64 KB, in the
    /// middle of a request (at `--log-level debug` a full `check-backend` logs about 57 KB, and under load a few
    /// warnings more made its last two requests hang until the client gave up).
    private let log = Mutex(Data())
    private let logEnded = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = err.fileHandleForReading
        DispatchQueue.global().async {
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty { break }
                self.log.withLock { $0.append(chunk) }
            }
            self.logEnded.signal()
        }
        // The first stdout line announces the bound address; a server that says nothing within 20 s fails.
        let reader = out.fileHandleForReading
        let announced = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var line = Data()
        DispatchQueue.global().async {
            while true {
                let byte = reader.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            announced.signal()
        }
        guard announced.wait(timeout: .now() + 20) == .success else {
            process.terminate()
            throw CLIFailure(description: "serve did not announce its address within 20 s")
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on ") else {
            process.terminate()
            throw CLIFailure(
                description:
                    "serve did not announce its address: '\(text)' stderr: \(String(decoding: log.withLock { $0 }, as: UTF8.self))"
            )
        }
        url = String(text.dropFirst("listening on ".count).split(separator: " ").first ?? "")
    }

    /// Sends SIGTERM or SIGINT and returns the exit status and stderr.
    func stop(signal: Int32 = SIGTERM) -> (Int32, String) {
        kill(process.processIdentifier, signal)
        // A server that ignores the signal is killed after 20 s (and the test sees SIGKILL's status).
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        process.waitUntilExit()
        logEnded.wait()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: log.withLock { $0 }, as: UTF8.self))
    }
}

private struct CLIFailure: Error, CustomStringConvertible { var description: String }

private func runCLI(_ arguments: [String]) async throws -> CLIResult {
    try await offPool { try CLI.run(arguments, timeout: 600) }
}
private func startServe(_ arguments: [String]) async throws -> ServeProcess { try await offPool { try ServeProcess(arguments) } }
private func stopServe(_ server: ServeProcess, signal: Int32 = SIGTERM) async throws -> (Int32, String) {
    try await offPool { server.stop(signal: signal) }
}

@Suite(.serialized) struct ServeCLITests {
    @Test func checkBackendPassesAgainstServeAndServeStopsCleanlyOnSIGTERM() async throws {
        // The normal deployment: probed at an internal address, generating URLs for the public one.
        let server = try await startServe([
            "--root", "/swedbank-pay-mobile/", "--public-url", "https://shop.example.com",
            "--app-id", "ABCDE12345.com.example.shop",
            "--android-package", "com.example.shop", "--sha256-cert", String(repeating: "ab", count: 32),
            "--app-scheme", "shop", "--log-level", "debug",
        ])
        #expect(server.url.hasPrefix("http://127.0.0.1:"))
        let r = try await runCLI([
            "check-backend", server.url + "/swedbank-pay-mobile/", "--public-url", "https://shop.example.com",
            "--app-id", "ABCDE12345.com.example.shop", "--android-package", "com.example.shop", "--scheme", "shop",
            "--android-cert-sha256", Array(repeating: "AB", count: 32).joined(separator: ":"),
            // A generous bound per response: under the full suite two cores also run both engines and the JDK.
            "--timeout", "60",
        ])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.filter { $0.hasPrefix("PASS ") }.count >= 30, "\(r)")
        #expect(r.stdout.contains("PASS assetlinks.json: ") && r.stdout.contains("signed with AB:AB:"), "\(r)")
        #expect(!r.stdout.contains("FAIL "))
        #expect(r.stdoutLines.last?.hasSuffix("0 failed, 0 warnings, 0 skipped") == true, "\(r)")
        let (status, log) = try await stopServe(server)
        #expect(status == 0, "\(log)")
        // At debug level, one log line per request, on stderr.
        #expect(log.contains("GET /.well-known/apple-app-site-association 200"))
    }

    /// With no scheme flags on either side, `check-backend` passes against `serve --public-url` (the server still
    /// refuses the OS's own schemes, which `check-backend` never asks for).
    @Test func checkBackendPassesAgainstServeWithNoSchemeFlags() async throws {
        let server = try await startServe(["--public-url", "https://shop.example.com"])
        let r = try await runCLI([
            "check-backend", server.url + "/", "--public-url", "https://shop.example.com", "--timeout", "60",
        ])
        let refused = try await RawHTTP.request(
            port: try #require(Int(server.url.split(separator: ":").last ?? "")),
            "GET /sdk-callback/ios-universal-link?scheme=itms-services&language=en-US&fallback=true HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        _ = try await stopServe(server)
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.contains("FAIL "), "\(r)")
        #expect(refused.hasPrefix("HTTP/1.1 400 "), "\(refused)")
    }

    @Test func atTheDefaultLevelOnlyRefusedRequestsAreLogged() async throws {
        let server = try await startServe(["--app-scheme", "shop"])
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let fine = try await RawHTTP.request(
            port: port, "GET /.well-known/assetlinks.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let refused = try await RawHTTP.request(
            port: port,
            "GET /sdk-callback/ios-universal-link?scheme=itms-services&language=en-US&fallback=true HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        let (status, log) = try await stopServe(server)
        #expect(status == 0, "\(log)")
        #expect(fine.hasPrefix("HTTP/1.1 200 "), "\(fine)")
        #expect(refused.hasPrefix("HTTP/1.1 400 "), "\(refused)")
        #expect(refused.contains("application/problem+json"), "\(refused)")
        #expect(!refused.contains("itms-services://"), "\(refused)")
        let lines = log.split(separator: "\n")
        #expect(!lines.contains { $0.contains("GET /.well-known/assetlinks.json") }, "\(log)")
        #expect(
            lines.contains {
                $0.contains("warning") && $0.contains("GET /sdk-callback/ios-universal-link?scheme=itms-services")
                    && $0.contains(" 400 ")
            }, "\(log)")
    }

    @Test func serveStopsCleanlyOnSIGINT() async throws {
        let server = try await startServe([])
        let (status, log) = try await stopServe(server, signal: SIGINT)
        #expect(status == 0, "\(log)")
    }

    @Test func checkBackendFailsWhereTheHelpersAreMissing() async throws {
        let server = try await startServe(["--root", "/elsewhere/", "--app-id", "ABCDE12345.com.example.shop"])
        let r = try await runCLI(["check-backend", server.url + "/swedbank-pay-mobile/"])
        _ = try await stopServe(server)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("FAIL android-intent page"))
        #expect(r.stdout.contains("FAIL apple-app-site-association"))
        // What needs the helpers is skipped, not passed.
        #expect(r.stdout.contains("SKIP android-intent injection package: the android-intent page answered 404"), "\(r)")
        #expect(!r.stdout.contains("PASS android-intent ignores Host"))
    }

    @Test func checkBackendWithoutThePublicURLFailsAgainstAServeThatHasOne() async throws {
        let server = try await startServe(["--root", "/swedbank-pay-mobile/", "--public-url", "https://shop.example.com"])
        let r = try await runCLI(["check-backend", server.url + "/swedbank-pay-mobile/"])
        _ = try await stopServe(server)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout.contains("FAIL android-intent page: expected a 0 s meta refresh and a link to intent://127.0.0.1:"), "\(r)")
    }

    @Test func checkBackendReportsAnUnreachableBackendAsFailures() async throws {
        let server = try await startServe([])
        let url = server.url
        _ = try await stopServe(server)
        let r = try await runCLI(["check-backend", url + "/", "--timeout", "2"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.hasPrefix("FAIL reachable: "), "\(r)")
        #expect(r.stdoutLines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("SKIP ") }, "\(r)")
    }

    /// Black-box rows: exit 64 and an error on stderr. Each helper option's validation is tested in-process
    /// (PlainviewServerTests `ServeOptionRows`).
    @Test(arguments: [
        ["serve", "--public-url", "ftp://x"], ["serve", "--pages", "/no/such/dir"],
        ["serve", "--port", "70000"], ["check-backend", "ftp://x/"], ["check-backend"],
        ["check-backend", "http://127.0.0.1:1/", "--android-cert-sha256", "AB:CD"],
        ["serve", "--app-scheme", "https"], ["serve", "--log-level", "loud"], ["serve", "--idle-timeout", "0"],
        ["serve", "--max-connections", "0"], ["serve", "--header-timeout", "20", "--read-timeout", "10"],
    ])
    func badOptionsAreUsageErrors(arguments: [String]) async throws {
        let r = try await runCLI(arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.lowercased().contains("error"), "\(r)")
    }
}

import Foundation
import Testing
import PageScan

/// Pages read from a file descriptor a few kB at a time give exactly what the same bytes give in memory;
/// NULs are replaced across chunk boundaries; a read error is an error naming the input.
@Suite struct StreamingInputTests {
    static let doc = "https://shop.example/pay/page"

    /// A page far larger than libxml2's read size (4 kB), with NULs and multi-byte text at many offsets.
    static func bigPage() -> [UInt8] {
        var bytes = Array("<html><head><meta charset='utf-8'></head><body>".utf8)
        for i in 0..<3000 {
            bytes += Array("<p>Köp \(i)</p><a href='/p/\(i)'>Läs\u{2028}mer \(i)</a>".utf8)
            if i % 7 == 0 { bytes.append(0) }
            if i % 50 == 0 { bytes += Array("<button onclick=\"location.href='/c/\(i)'\">b</button>".utf8) }
        }
        bytes += Array("<script>function go(){ location.replace('/end') } go();</script></body></html>".utf8)
        return bytes
    }

    func scanFile(_ bytes: [UInt8], contentType: String? = nil) throws -> PageScanResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pv-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.html")
        try Data(bytes).write(to: file)
        let fd = open(file.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        return try PageScanner.scan(fileDescriptor: fd, name: "'page.html'", contentType: contentType, documentURL: Self.doc)
    }

    /// Without a declared charset libxml2 guesses from the bytes it has; reading in pieces must not change that.
    @Test(arguments: [true, false])
    func fileGivesWhatMemoryGives(declared: Bool) throws {
        var bytes = Self.bigPage()
        if !declared { bytes.removeFirst("<html><head><meta charset='utf-8'></head>".utf8.count) }
        let fromMemory = try PageScanner.scan(bytes, documentURL: Self.doc)
        let fromFile = try scanFile(bytes)
        #expect(fromFile == fromMemory)
        #expect(fromFile.links.count == 3000)
        // Undeclared, libxml2 2.9 reads the bytes as Latin-1 (as browsers default to windows-1252): both ways.
        #expect(
            fromFile.links[2999]
                == .init(url: "https://shop.example/p/2999", text: declared ? "Läs\u{2028}mer 2999" : "LÃ¤sâ\u{80}¨mer 2999"))
        #expect(fromFile.scriptNavigations.count == 61)
        #expect(
            fromFile.scriptNavigations.last?.withoutRunOrder
                == .init(url: "https://shop.example/end", kind: .replace, onLoad: true))
    }

    /// A NUL is delivered as U+FFFD (three bytes); where that spills over a read, nothing is lost or doubled.
    @Test(arguments: [4095, 4096, 4097, 8191, 12_000])
    func nulAtAReadBoundary(_ offset: Int) throws {
        var bytes = Array("<meta charset=utf-8><p>".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "y"), count: offset - bytes.count - 17)
        bytes += Array("</p><a href=/x>a".utf8)
        #expect(bytes.count == offset - 1)
        bytes += [0, 0, 0]
        bytes += Array("z</a><a href='/after'>after</a>".utf8)
        let r = try scanFile(bytes)
        #expect(r == (try PageScanner.scan(bytes, documentURL: Self.doc)))
        #expect(r.links.count == 2)
        #expect(r.links.first?.text == "a\u{FFFD}\u{FFFD}\u{FFFD}z")
        #expect(r.links.last?.url == "https://shop.example/after")
    }

    @Test func utf16PageIsNotRewritten() throws {
        let text = "<a href='/u'>ü</a>"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let r = try scanFile(bytes)
        #expect(r.links == [.init(url: "https://shop.example/u", text: "ü")])
    }

    @Test func pipeDeliveringOneByteFirst() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let page = Array("<a href='/piped'>piped</a>\0<a href='/two'>two</a>".utf8)
        let writeEnd = fds[1]
        let writer = Thread {
            _ = page.withUnsafeBytes { write(writeEnd, $0.baseAddress!, 1) }
            usleep(20_000)
            _ = page.withUnsafeBytes { write(writeEnd, $0.baseAddress! + 1, page.count - 1) }
            close(writeEnd)
        }
        writer.start()
        defer { close(fds[0]) }
        let r = try PageScanner.scan(fileDescriptor: fds[0], name: "standard input", documentURL: Self.doc)
        #expect(r.links.map(\.url) == ["https://shop.example/piped", "https://shop.example/two"])
    }

    @Test func readErrorIsAnErrorNamingTheInput() throws {
        let fd = open(FileManager.default.temporaryDirectory.path, O_RDONLY) // read(2) on a directory: EISDIR
        try #require(fd >= 0)
        defer { close(fd) }
        #expect {
            _ = try PageScanner.scan(fileDescriptor: fd, name: "'tmp'", documentURL: Self.doc)
        } throws: { error in
            guard let e = error as? PageScanError else { return false }
            return e.code == .unreadable && e.message.contains("'tmp'") && e.message.lowercased().contains("directory")
        }
    }
}

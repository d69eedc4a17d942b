import ArgumentParser
import Foundation
import PageScan

struct Extract: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print where a served page sends the user next, as JSON.",
        discussion: """
            Reads an HTML page (a file, or - for standard input) served at --base and prints one JSON object:
            refresh, links, forms, frames, scriptNavigations, hooks. Every URL is absolute.
            """
    )

    @Argument(help: "The HTML file to read, or - for standard input.")
    var file: String

    @Option(name: .long, help: "The URL the page was served at (relative URLs resolve against it).")
    var base: String

    @Option(name: .customLong("content-type"), help: "The Content-Type header the page came with (for its charset).")
    var contentType: String?

    @Option(name: .customLong("android-interface"),
            help: "An Android JavaScript-interface object name to report calls of (repeatable; default: callbacks, Android).")
    var androidInterfaces: [String] = []

    func run() async throws {
        // Read straight into bytes so the page is not held twice (a 100 MB page is a supported input).
        let bytes: [UInt8]
        if file == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            do {
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                throw inputError("cannot read '\(file)': \(Self.reason(error))")
            }
        }
        let interfaces = androidInterfaces.isEmpty ? PageScanner.defaultAndroidInterfaces : Set(androidInterfaces)
        let result: PageScanResult
        do {
            result = try PageScanner.scan(bytes, contentType: contentType, documentURL: base,
                                          androidInterfaces: interfaces)
        } catch {
            if error.code == .invalidDocumentURL { throw inputError("--base: \(error.message)") }
            throw inputError("'\(file)': \(error.message)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(ExtractOutput(result))
        FileHandle.standardOutput.write(Data((Self.tidyEmptyArrays(String(decoding: json, as: UTF8.self)) + "\n").utf8))
    }

    /// Foundation's pretty printer writes `[]` as `[` newline newline `]`; print `[]`. (JSON strings cannot hold a raw
    /// newline, so this only ever touches structure.)
    static func tidyEmptyArrays(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        var rest = Substring(json)
        while let open = rest.range(of: "[\n\n") {
            out += rest[..<open.lowerBound]
            var after = rest[open.upperBound...]
            while after.first == " " { after = after.dropFirst() }
            if after.first == "]" {
                out += "[]"
                rest = after.dropFirst()
            } else {
                out += rest[open]
                rest = rest[open.upperBound...]
            }
        }
        return out + rest
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain {
            switch ns.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return ns.localizedDescription
    }
}

/// The JSON shape: every key present (`refresh` is null when the page has none).
private struct ExtractOutput: Encodable {
    var result: PageScanResult
    init(_ result: PageScanResult) { self.result = result }
    enum CodingKeys: String, CodingKey { case refresh, links, forms, frames, scriptNavigations, hooks }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(result.refresh, forKey: .refresh)   // explicit null rather than a missing key
        try c.encode(result.links, forKey: .links)
        try c.encode(result.forms, forKey: .forms)
        try c.encode(result.frames, forKey: .frames)
        try c.encode(result.scriptNavigations, forKey: .scriptNavigations)
        try c.encode(result.hooks, forKey: .hooks)
    }
}

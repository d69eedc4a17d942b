import Foundation
import Testing
import TestSupport
@testable import PlainviewConfig

@Suite struct DefaultGoodlistTests {
    @Test func theBuiltInListIsTheShippedFileByteForByte() throws {
        let file = try String(contentsOf: Project.path("Goodlist/3ds.goodlist"), encoding: .utf8)
        #expect(
            DefaultGoodlist.text + "\n" == file,
            "Goodlist/3ds.goodlist changed: run Scripts/embed-default-goodlist.py to compile it in again")
    }

    @Test func itParsesIntoEveryEntryWithItsLine() {
        #expect(DefaultGoodlist.entries.count == 12)
        #expect(DefaultGoodlist.entries.first?.pattern == "**.payex.com")
        #expect(DefaultGoodlist.entries.first?.file == "Goodlist/3ds.goodlist")
        #expect(DefaultGoodlist.entries.first?.line == 12)
    }
}

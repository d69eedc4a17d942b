@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
@testable import NavigationPolicy
import PlainviewSupport
@Suite("Fuzz regressions: app switch")
struct AppSwitchFuzzRegressionTests {
    /// Nesting deeper than the platform decoder allows is an error, not a stack overflow.
    @Test(arguments: [1000, 100_000])
    func deeplyNestedTransactionResponseIsAnError(depth: Int) {
        let json =
            #"{"transactions": [{"emvData": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + "}]}"
        let error = appSwitchError { try ROAMpayResponse.decode(json: Data(json.utf8)) }
        #expect(error?.field == "transactionResponse")
        #expect(error?.description.contains("nested more than 512 levels deep") == true, "\(String(describing: error))")
    }

    /// 512 levels is what the platform decoder reads: the syntax checker agrees with it at the limit.
    @Test func nestingUpToTheDecodersLimitIsRead() throws {
        let inner = 512 - 3 // {, [ and { around emvData
        let json =
            #"{"transactions": [{"emvData": "# + String(repeating: "[", count: inner) + String(repeating: "]", count: inner)
            + "}]}"
        #expect(JSONSyntax.firstError(in: Array(json.utf8)) == nil)
        #expect(try ROAMpayResponse.decode(json: Data(json.utf8)).transactions.count == 1)
        let deeper =
            #"{"transactions": [{"emvData": "# + String(repeating: "[", count: inner + 1)
            + String(repeating: "]", count: inner + 1) + "}]}"
        #expect(JSONSyntax.firstError(in: Array(deeper.utf8)) != nil)
        #expect(throws: AppSwitchError.self) { try ROAMpayResponse.decode(json: Data(deeper.utf8)) }
    }
}

import Testing
import HummingbirdTesting
@testable import PlainviewServer

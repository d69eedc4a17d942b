// ExpressibleByArgument conformances for library types live here, in the CLI target (STYLE.md §8).
import ArgumentParser
import FlowSimulator
import Logging
import NavigationPolicy

extension Platform: ExpressibleByArgument {}
extension NavigationFrame: ExpressibleByArgument {}
extension Outcome.Kind: ExpressibleByArgument {}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// When a finding's code runs: while the page parses (an inline script's top level), once it has loaded
/// (`onload` handlers and listeners, `DOMContentLoaded`, jQuery ready), or only on a tap.
enum RunTime: UInt8 { case parse, load, tap }

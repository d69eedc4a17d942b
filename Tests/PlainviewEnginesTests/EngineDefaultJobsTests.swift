import Testing

@testable import PlainviewEngines

/// How many engines `simulate --engine E` starts without `--jobs`: Chromium, busy on the CPU, one per core; WebKit,
/// which waits on real time for a page to settle, two per core. Never fewer than one (or two) on a machine that
/// reports no cores.
@Suite struct EngineDefaultJobsTests {
    @Test(arguments: [(1, 1, 2), (2, 2, 4), (8, 8, 16), (0, 1, 2)] as [(Int, Int, Int)])
    func chromiumPerCoreWebKitTwicePerCore(cores: Int, chromium: Int, webkit: Int) {
        #expect(ChromiumEngine.defaultJobs(cores: cores) == chromium)
        #expect(WebKitEngine.defaultJobs(cores: cores) == webkit)
    }
}

import Testing

@testable import PlainviewEngines

/// The order in which `--jobs N` starts the flows: the heaviest first when the flows are weighed (explore: the
/// model's branch counts), ties and unweighed runs in the flows' own order. The results come back in the flows'
/// order whatever the start order (the CLI's `--jobs 1` against `--jobs 3` tests compare the outputs).
@Suite struct EnginePoolOrderTests {
    @Test(
        arguments: [
            // No weights: the flows' order.
            (4, nil, [0, 1, 2, 3]),
            // Branch counts like the shipped Pages': the 22-branch flows first, in their order, the 1-branch ones last.
            (7, [1, 8, 22, 5, 22, 1, 11], [2, 4, 6, 1, 3, 0, 5]),
            // Equal weights keep the flows' order.
            (3, [5, 5, 5], [0, 1, 2]),
            // Weights that do not match the flows (none given for some) are not used.
            (3, [9, 1], [0, 1, 2]),
            (0, [], []),
        ] as [(Int, [Int]?, [Int])])
    func heaviestFirstTiesInOrder(count: Int, weights: [Int]?, expected: [Int]) {
        #expect(EnginePool.startOrder(count: count, weights: weights) == expected)
    }

    /// One flow's branches run on one thread per engine, never on more threads than the model's branches: a
    /// flow of one branch gets one thread, and a flow the model gives no branch (it cannot, but a wrong model
    /// may) still gets one.
    @Test(arguments: [(4, 22, 4), (4, 1, 1), (2, 3, 2), (3, 2, 2), (1, 8, 1), (4, 0, 1)])
    func branchThreadsAreCappedByTheModel(jobs: Int, expected: Int, threads: Int) {
        #expect(EnginePool.branchThreads(jobs: jobs, expected: expected) == threads)
    }
}

// Refusals are logged as warnings, but a client can cause them at will: past a budget per second they are counted
// instead, and the next warning logged says how many were left out, so a flood of bad requests cannot flood stderr.
import Logging
import Synchronization

final class WarningBudget: Sendable {
    private struct Window {
        var start: ContinuousClock.Instant
        var logged = 0
        var leftOut = 0
    }

    let perSecond: Int
    private let window: Mutex<Window>

    init(perSecond: Int = 20, now: ContinuousClock.Instant = .now) {
        self.perSecond = perSecond
        window = Mutex(Window(start: now))
    }

    /// Logs `message` as a warning unless this second's budget is spent (then counts it).
    func warn(_ logger: Logger, _ message: @autoclosure () -> String, now: ContinuousClock.Instant = .now) {
        guard logger.logLevel <= .warning else { return }
        let leftOut: Int? = window.withLock { w in
            if now - w.start >= .seconds(1) {
                let previous = w.leftOut
                w = Window(start: now)
                w.logged = 1
                return previous
            }
            guard w.logged < perSecond else {
                w.leftOut += 1
                return nil
            }
            w.logged += 1
            return 0
        }
        guard let leftOut else { return }
        let note = leftOut == 0 ? "" : " (\(leftOut) more refusal\(leftOut == 1 ? "" : "s") before this one were not logged)"
        logger.warning("\(message())\(note)")
    }
}

// The host app's life while the user is in another app or the browser: iOS suspends a background app and may
// end it to reclaim memory (Apple's "Managing your app's life cycle": a suspended app "can be purged at any
// time"); Android may kill a background process likewise (the Android activity lifecycle: "the system kills
// processes when it needs to free up RAM"). Whether it happens is up to the phone: an uncertain point.

extension World {
    /// The host app comes to the front again: was its process ended while it was away? `--explore` tries both;
    /// a normal run keeps it. Killed, the app starts again with an empty web view and only the persistent
    /// cookies; a URL the OS hands it (`arrivingURL`) then reaches it as a launch URL, and without one it shows
    /// its start screen: the payment page is gone. True when the run ended here.
    func killedWhileAway() -> Bool {
        let assumed = !oracle.exploring && flow.assumptions.hostKilled && !killedOnce ? 1 : nil
        let killed = oracle.choose("host-killed \(flow.hostApp)", ["host-kept", "host-killed"], fixed: assumed) == 1
        if killed { killedOnce = true }
        guard killed else { return false }
        let generation = web.generation + 1
        web = Tab(jar: web.jar.afterProcessDeath())
        web.generation = generation
        timers.removeAll { $0.surface == .host }
        emit(
            .note, context: "webview",
            reason:
                "the phone ended the host app while it was away (a background app may be ended to reclaim memory): it starts again with an empty web view and only its persistent cookies"
        )
        guard arrivingURL == nil else { return false }
        finish(
            .stuck, place: .host,
            reason:
                "the host app was ended while away and comes back without a URL: it shows its start screen, and the payment page is gone (an app must keep the payment where a relaunch finds it)"
        )
        return true
    }
}

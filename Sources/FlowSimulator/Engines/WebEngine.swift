// Engine mode: the host app's web view is a real browser engine (Chromium over the DevTools protocol, in the
// PlainviewEngines target) while the network, the OS routing, the apps, the browser and the user stay simulated.
//
// The engine drives: it parses and runs the pages, and every navigation it wants to make comes back here as an
// `EngineEvent` — asked to the policy exactly as the model's navigations are (the app's
// `shouldOverrideUrlLoading` / `decidePolicyFor`), then allowed (its request is answered from the flow's recorded
// responses) or refused. The world's side never sees a C type, a pipe or a process: a driver implements
// `WebEngine`, one `EngineSession` per run (branch).
import NavigationPolicy

/// A browser engine that can render a flow's web view. Opening a session starts (or reuses) the engine.
public protocol WebEngine: AnyObject {
    /// `chromium`, `webkit`: the name reports and `compare` use.
    var name: String { get }
    /// A fresh, empty web view for one run of `flow` (no cookies, no history). A failure is the run's `error`.
    func open(_ flow: Flow) throws(EngineFailure) -> any EngineSession
    /// Ends the engine's processes (idempotent; a later `open` starts them again).
    func shutdown()
}

import NavigationPolicy

/// What the user taps, as the model found it on the page (the engine finds the element again in its own DOM).
public struct EngineTap: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case link, form, button, script }
    public var kind: Kind
    /// The link's href, the form's action (a button's form's), the script handler's target (absolute).
    public var url: String
    /// The step's text, when it names one (matched like the model: case and spacing ignored).
    public var text: String?
    /// The sub-frame holding it (the engine's index), nil for the main frame.
    public var frameIndex: Int?

    public init(kind: Kind, url: String, text: String?, frameIndex: Int?) {
        self.kind = kind
        self.url = url
        self.text = text
        self.frameIndex = frameIndex
    }
}

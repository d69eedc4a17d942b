// The handlers a phone ships with: every iPhone can dial, text and mail, and so can every Android phone.
// A page's `tel:`, `sms:` or `mailto:` link reaches them without any app in the environment file.

/// The system apps that handle custom schemes out of the box, per platform.
public enum PlatformDefaultApps {
    /// The schemes each platform's own apps handle, and the app's name (for reasons and traces).
    /// iOS: Phone, Messages, Mail and FaceTime; Android: the dialer, the messaging app and an e-mail app
    /// (Android resolves `smsto:`/`mmsto:` like `sms:`, iOS does not know them).
    public static func handlers(on platform: Platform) -> [(scheme: String, app: String)] {
        platform == .ios ? ios : android
    }

    private static let ios: [(scheme: String, app: String)] = [
        ("tel", "Phone"), ("sms", "Messages"), ("mailto", "Mail"), ("facetime", "FaceTime"), ("facetime-audio", "FaceTime"),
    ]
    private static let android: [(scheme: String, app: String)] = [
        ("tel", "Phone"), ("sms", "Messages"), ("smsto", "Messages"), ("mms", "Messages"), ("mmsto", "Messages"),
        ("mailto", "Email"),
    ]

    /// The system app for `scheme` (lower case, without `:`) on `platform`, or nil.
    public static func app(for scheme: String, on platform: Platform) -> String? {
        handlers(on: platform).first { $0.scheme == scheme }?.app
    }
}

// The part of WebKitGTK 4.1 (and the GTK 3, GLib and JavaScriptCore it links) the driver calls, found at run
// time with dlopen/dlsym: building Plainview never needs WebKit's headers, and a machine without WebKitGTK gets a
// clear "install libwebkit2gtk-4.1-0" instead of a link error. Signatures follow the 4.1 headers; enum values
// are the headers' (checked against WebKitGTK 2.50).
#if canImport(Glibc)
import Glibc
#endif

typealias Ptr = OpaquePointer
typealias GCallback = @convention(c) () -> Void
typealias GSourceFunc = @convention(c) (UnsafeMutableRawPointer?) -> Int32
typealias GAsyncReadyCallback = @convention(c) (Ptr?, Ptr?, UnsafeMutableRawPointer?) -> Void

/// WebKitGTK's enums, as numbered in its headers.
enum WK {
    static let policyNavigationAction: UInt32 = 0, policyNewWindowAction: UInt32 = 1
    static let navigationTypes = ["link", "form", "backForward", "reload", "formResubmit", "other"]
    static let proxyModeCustom: Int32 = 2
    static let tlsErrorsIgnore: Int32 = 0
    static let injectAllFrames: Int32 = 0, injectAtDocumentStart: Int32 = 0
    static let dialogConfirm: Int32 = 1, dialogPrompt: Int32 = 2, dialogBeforeUnload: Int32 = 3
    static let gtkWindowToplevel: Int32 = 0
}

/// Why the engine cannot run here, with the Debian package that fixes it.
struct MissingEngine: Error {
    var package: String
    var message: String
}

struct WebKitAPI {
    // GLib / GObject
    let g_signal_connect_data:
        @convention(c) (Ptr?, UnsafePointer<CChar>, GCallback, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32) -> UInt
    let g_object_ref: @convention(c) (Ptr?) -> Ptr?
    let g_object_unref: @convention(c) (Ptr?) -> Void
    let g_idle_add: @convention(c) (GSourceFunc, UnsafeMutableRawPointer?) -> UInt32
    let g_free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    // GTK
    let gtk_init_check: @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Int32
    let gtk_main: @convention(c) () -> Void
    let gtk_main_quit: @convention(c) () -> Void
    let gtk_window_new: @convention(c) (Int32) -> Ptr?
    let gtk_window_set_default_size: @convention(c) (Ptr?, Int32, Int32) -> Void
    let gtk_container_add: @convention(c) (Ptr?, Ptr?) -> Void
    let gtk_widget_show_all: @convention(c) (Ptr?) -> Void
    let gtk_widget_destroy: @convention(c) (Ptr?) -> Void
    let gtk_widget_get_window: @convention(c) (Ptr?) -> Ptr?
    let gdk_window_get_origin: @convention(c) (Ptr?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    let gdk_display_get_default: @convention(c) () -> Ptr?
    let gdk_x11_display_get_xdisplay: @convention(c) (Ptr?) -> Ptr?
    // WebKit: the view and its context
    let webkit_get_major_version: @convention(c) () -> UInt32
    let webkit_get_minor_version: @convention(c) () -> UInt32
    let webkit_get_micro_version: @convention(c) () -> UInt32
    let webkit_website_data_manager_new_ephemeral: @convention(c) () -> Ptr?
    let webkit_network_proxy_settings_new: @convention(c) (UnsafePointer<CChar>?, UnsafeRawPointer?) -> Ptr?
    let webkit_network_proxy_settings_free: @convention(c) (Ptr?) -> Void
    let webkit_website_data_manager_set_network_proxy_settings: @convention(c) (Ptr?, Int32, Ptr?) -> Void
    let webkit_website_data_manager_set_tls_errors_policy: @convention(c) (Ptr?, Int32) -> Void
    let webkit_web_context_new_with_website_data_manager: @convention(c) (Ptr?) -> Ptr?
    let webkit_web_view_new_with_context: @convention(c) (Ptr?) -> Ptr?
    let webkit_web_view_get_settings: @convention(c) (Ptr?) -> Ptr?
    let webkit_settings_set_user_agent: @convention(c) (Ptr?, UnsafePointer<CChar>?) -> Void
    let webkit_settings_set_javascript_can_open_windows_automatically: @convention(c) (Ptr?, Int32) -> Void
    let webkit_web_view_get_user_content_manager: @convention(c) (Ptr?) -> Ptr?
    let webkit_user_script_new: @convention(c) (UnsafePointer<CChar>, Int32, Int32, UnsafeRawPointer?, UnsafeRawPointer?) -> Ptr?
    let webkit_user_script_unref: @convention(c) (Ptr?) -> Void
    let webkit_user_content_manager_add_script: @convention(c) (Ptr?, Ptr?) -> Void
    let webkit_user_content_manager_register_script_message_handler: @convention(c) (Ptr?, UnsafePointer<CChar>) -> Int32
    let webkit_web_view_load_uri: @convention(c) (Ptr?, UnsafePointer<CChar>) -> Void
    let webkit_web_view_get_uri: @convention(c) (Ptr?) -> UnsafePointer<CChar>?
    let webkit_web_view_evaluate_javascript:
        @convention(c) (
            Ptr?, UnsafePointer<CChar>, Int, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            Ptr?, GAsyncReadyCallback?, UnsafeMutableRawPointer?
        ) -> Void
    let webkit_web_view_evaluate_javascript_finish: @convention(c) (Ptr?, Ptr?, UnsafeMutableRawPointer?) -> Ptr?
    // Decisions
    let webkit_navigation_policy_decision_get_navigation_action: @convention(c) (Ptr?) -> Ptr?
    let webkit_navigation_action_get_navigation_type: @convention(c) (Ptr?) -> Int32
    let webkit_navigation_action_is_user_gesture: @convention(c) (Ptr?) -> Int32
    let webkit_navigation_action_is_redirect: @convention(c) (Ptr?) -> Int32
    let webkit_navigation_action_get_request: @convention(c) (Ptr?) -> Ptr?
    let webkit_navigation_action_get_frame_name: @convention(c) (Ptr?) -> UnsafePointer<CChar>?
    let webkit_uri_request_get_uri: @convention(c) (Ptr?) -> UnsafePointer<CChar>?
    let webkit_uri_request_get_http_method: @convention(c) (Ptr?) -> UnsafePointer<CChar>?
    let webkit_policy_decision_use: @convention(c) (Ptr?) -> Void
    let webkit_policy_decision_ignore: @convention(c) (Ptr?) -> Void
    // Dialogs and script messages
    let webkit_script_dialog_get_dialog_type: @convention(c) (Ptr?) -> Int32
    let webkit_script_dialog_confirm_set_confirmed: @convention(c) (Ptr?, Int32) -> Void
    let webkit_script_dialog_prompt_get_default_text: @convention(c) (Ptr?) -> UnsafePointer<CChar>?
    let webkit_script_dialog_prompt_set_text: @convention(c) (Ptr?, UnsafePointer<CChar>?) -> Void
    let webkit_javascript_result_get_js_value: @convention(c) (Ptr?) -> Ptr?
    let jsc_value_to_string: @convention(c) (Ptr?) -> UnsafeMutablePointer<CChar>?

    /// The library loaded: `PLAINVIEW_WEBKIT_LIBRARY` (another WebKitGTK 4.1 build), else the system's.
    static var library: String {
        let given = getenv("PLAINVIEW_WEBKIT_LIBRARY").map { String(cString: $0) } ?? ""
        return given.isEmpty ? "libwebkit2gtk-4.1.so.0" : given
    }

    /// Loads WebKitGTK 4.1 (`libwebkit2gtk-4.1.so.0`, which brings GTK 3, GLib and JavaScriptCore).
    static func load() throws(MissingEngine) -> WebKitAPI {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            throw MissingEngine(
                package: "libwebkit2gtk-4.1-0",
                message: "WebKitGTK 4.1 cannot be loaded (\(why))")
        }
        var missing: [String] = []
        func f<T>(_ name: String) -> T {
            if let p = dlsym(handle, name) { return unsafeBitCast(p, to: T.self) }
            missing.append(name)
            // A placeholder never called: `load` fails below when any symbol is missing.
            return unsafeBitCast(dlsym(handle, "webkit_get_major_version")!, to: T.self)
        }
        let api = WebKitAPI(
            g_signal_connect_data: f("g_signal_connect_data"), g_object_ref: f("g_object_ref"),
            g_object_unref: f("g_object_unref"),
            g_idle_add: f("g_idle_add"), g_free: f("g_free"),
            gtk_init_check: f("gtk_init_check"), gtk_main: f("gtk_main"), gtk_main_quit: f("gtk_main_quit"),
            gtk_window_new: f("gtk_window_new"), gtk_window_set_default_size: f("gtk_window_set_default_size"),
            gtk_container_add: f("gtk_container_add"), gtk_widget_show_all: f("gtk_widget_show_all"),
            gtk_widget_destroy: f("gtk_widget_destroy"), gtk_widget_get_window: f("gtk_widget_get_window"),
            gdk_window_get_origin: f("gdk_window_get_origin"),
            gdk_display_get_default: f("gdk_display_get_default"),
            gdk_x11_display_get_xdisplay: f("gdk_x11_display_get_xdisplay"),
            webkit_get_major_version: f("webkit_get_major_version"), webkit_get_minor_version: f("webkit_get_minor_version"),
            webkit_get_micro_version: f("webkit_get_micro_version"),
            webkit_website_data_manager_new_ephemeral: f("webkit_website_data_manager_new_ephemeral"),
            webkit_network_proxy_settings_new: f("webkit_network_proxy_settings_new"),
            webkit_network_proxy_settings_free: f("webkit_network_proxy_settings_free"),
            webkit_website_data_manager_set_network_proxy_settings: f("webkit_website_data_manager_set_network_proxy_settings"),
            webkit_website_data_manager_set_tls_errors_policy: f("webkit_website_data_manager_set_tls_errors_policy"),
            webkit_web_context_new_with_website_data_manager: f("webkit_web_context_new_with_website_data_manager"),
            webkit_web_view_new_with_context: f("webkit_web_view_new_with_context"),
            webkit_web_view_get_settings: f("webkit_web_view_get_settings"),
            webkit_settings_set_user_agent: f("webkit_settings_set_user_agent"),
            webkit_settings_set_javascript_can_open_windows_automatically: f(
                "webkit_settings_set_javascript_can_open_windows_automatically"),
            webkit_web_view_get_user_content_manager: f("webkit_web_view_get_user_content_manager"),
            webkit_user_script_new: f("webkit_user_script_new"), webkit_user_script_unref: f("webkit_user_script_unref"),
            webkit_user_content_manager_add_script: f("webkit_user_content_manager_add_script"),
            webkit_user_content_manager_register_script_message_handler: f(
                "webkit_user_content_manager_register_script_message_handler"),
            webkit_web_view_load_uri: f("webkit_web_view_load_uri"), webkit_web_view_get_uri: f("webkit_web_view_get_uri"),
            webkit_web_view_evaluate_javascript: f("webkit_web_view_evaluate_javascript"),
            webkit_web_view_evaluate_javascript_finish: f("webkit_web_view_evaluate_javascript_finish"),
            webkit_navigation_policy_decision_get_navigation_action: f("webkit_navigation_policy_decision_get_navigation_action"),
            webkit_navigation_action_get_navigation_type: f("webkit_navigation_action_get_navigation_type"),
            webkit_navigation_action_is_user_gesture: f("webkit_navigation_action_is_user_gesture"),
            webkit_navigation_action_is_redirect: f("webkit_navigation_action_is_redirect"),
            webkit_navigation_action_get_request: f("webkit_navigation_action_get_request"),
            webkit_navigation_action_get_frame_name: f("webkit_navigation_action_get_frame_name"),
            webkit_uri_request_get_uri: f("webkit_uri_request_get_uri"),
            webkit_uri_request_get_http_method: f("webkit_uri_request_get_http_method"),
            webkit_policy_decision_use: f("webkit_policy_decision_use"),
            webkit_policy_decision_ignore: f("webkit_policy_decision_ignore"),
            webkit_script_dialog_get_dialog_type: f("webkit_script_dialog_get_dialog_type"),
            webkit_script_dialog_confirm_set_confirmed: f("webkit_script_dialog_confirm_set_confirmed"),
            webkit_script_dialog_prompt_get_default_text: f("webkit_script_dialog_prompt_get_default_text"),
            webkit_script_dialog_prompt_set_text: f("webkit_script_dialog_prompt_set_text"),
            webkit_javascript_result_get_js_value: f("webkit_javascript_result_get_js_value"),
            jsc_value_to_string: f("jsc_value_to_string")
        )
        guard missing.isEmpty else {
            throw MissingEngine(
                package: "libwebkit2gtk-4.1-0",
                message:
                    "this WebKitGTK lacks \(missing.joined(separator: ", ")) (WebKitGTK 2.40 or later with the 4.1 API is needed)"
            )
        }
        return api
    }

    /// Connects a C callback to a GObject signal.
    func connect<F>(_ instance: Ptr?, _ signal: String, _ callback: F, _ data: UnsafeMutableRawPointer? = nil) {
        _ = g_signal_connect_data(instance, signal, unsafeBitCast(callback, to: GCallback.self), data, nil, 0)
    }

    /// A C string WebKit owns, as Swift text ("" for NULL).
    static func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
}

/// The X server's XTEST extension (`libxtst6`), found at run time as WebKitGTK is: fake pointer events, which the
/// web view handles as the user's. nil when the library is missing (taps are then clicked by script).
struct XTest: Sendable {
    typealias Motion = @convention(c) (Ptr?, Int32, Int32, Int32, UInt) -> Int32
    typealias Button = @convention(c) (Ptr?, UInt32, Int32, UInt) -> Int32
    typealias Flush = @convention(c) (Ptr?) -> Int32
    let motion: Motion
    let button: Button
    let flush: Flush

    static let shared: XTest? = {
        // XFlush is libX11's, which GDK has loaded already.
        guard let lib = dlopen("libXtst.so.6", RTLD_NOW), let motion = dlsym(lib, "XTestFakeMotionEvent"),
            let button = dlsym(lib, "XTestFakeButtonEvent"), let flush = dlsym(dlopen(nil, RTLD_NOW), "XFlush")
        else { return nil }
        return XTest(
            motion: unsafeBitCast(motion, to: Motion.self), button: unsafeBitCast(button, to: Button.self),
            flush: unsafeBitCast(flush, to: Flush.self))
    }()
}

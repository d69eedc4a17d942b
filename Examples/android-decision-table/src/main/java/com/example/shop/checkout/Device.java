package com.example.shop.checkout;

/**
 * What the phone can open, as the app learns it (on Android: {@code PackageManager} queries). The app's
 * {@code WebViewClient} passes one that asks the system; the replay test passes a fixed one.
 */
public interface Device {
    /** True when the app with this package is installed and can be started from a browser. */
    boolean isInstalled(String packageName);

    /** The package of the installed app that handles {@code scheme:} URLs, or null when none does. */
    String packageForScheme(String scheme);
}

package com.example.shop.checkout;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The shop app's own answer to every navigation of its checkout web view: the function its
 * {@code WebViewClient.shouldOverrideUrlLoading} calls. It implements, on the phone, the rules of the shop's
 * Plainview policy (redirectPolicy: webview) that its flows reach; the decision table generated from that policy
 * and those flows is replayed against it in the app's unit tests (DecisionTableReplay), so a rule written
 * differently here fails there. No Android types: it compiles and runs on the JDK.
 */
public final class CheckoutPolicy {
    private static final Set<String> NEVER_EXTERNAL =
        new HashSet<>(Arrays.asList("javascript", "file", "data", "content", "blob", "filesystem", "view-source"));
    private static final Set<String> SUBFRAME_LOADABLE = new HashSet<>(Arrays.asList("about", "data", "blob"));
    private static final String BROWSABLE = "category=android.intent.category.BROWSABLE";

    private final String paymentUrl;
    private final String completeUrl;
    private final String cancelUrl;
    private final String hostPackage;
    private final Device device;

    public CheckoutPolicy(String paymentUrl, String completeUrl, String cancelUrl, String hostPackage, Device device) {
        this.paymentUrl = paymentUrl;
        this.completeUrl = completeUrl;
        this.cancelUrl = cancelUrl;
        this.hostPackage = hostPackage;
        this.device = device;
    }

    /**
     * The command for a navigation to {@code url} while {@code currentUrl} is shown ({@code WebView.getUrl()}),
     * in the main frame or a sub-frame ({@code WebResourceRequest.isForMainFrame()}), with or without a user
     * gesture ({@code hasGesture()}).
     */
    public CheckoutCommand decide(String url, String currentUrl, boolean mainFrame, boolean gesture) {
        URI uri = parse(url);
        if (uri == null || uri.getScheme() == null) {
            return CheckoutCommand.block();
        }
        if (sameResource(uri, parse(completeUrl))) {
            return CheckoutCommand.finish("complete");
        }
        if (sameResource(uri, parse(cancelUrl))) {
            return CheckoutCommand.finish("canceled");
        }
        if (isPaymentUrl(uri)) {
            return CheckoutCommand.loadPaymentPage(paymentUrl);
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        boolean web = scheme.equals("https") || scheme.equals("http");
        if (!mainFrame) {
            if (web || SUBFRAME_LOADABLE.contains(scheme)) {
                return CheckoutCommand.allow();
            }
            if (NEVER_EXTERNAL.contains(scheme) || !gesture) {
                return CheckoutCommand.block(); // a sub-frame opens an app only on a tap, as Chromium allows
            }
        }
        if (NEVER_EXTERNAL.contains(scheme)) {
            return CheckoutCommand.block();
        }
        if (scheme.equals("about")) {
            return CheckoutCommand.allow();
        }
        if (scheme.equals("intent")) {
            return intent(url, currentUrl, mainFrame, gesture);
        }
        if (!web) {
            String app = device.packageForScheme(scheme);
            return app == null ? CheckoutCommand.block() : CheckoutCommand.startActivity("view", url);
        }
        if (scheme.equals("http")) {
            return CheckoutCommand.openBrowser(url); // plain http never stays in the web view
        }
        return CheckoutCommand.allow(); // redirectPolicy: webview
    }

    /** An {@code intent:} URL: this app's own (its URL decided instead), another app's, or its fallback. */
    private CheckoutCommand intent(String url, String currentUrl, boolean mainFrame, boolean gesture) {
        int at = url.indexOf("#Intent;");
        if (at < 0 || !url.endsWith(";end")) {
            return CheckoutCommand.block();
        }
        List<String> items = new ArrayList<>(Arrays.asList(url.substring(at + "#Intent;".length()).split(";", -1)));
        String scheme = value(items, "scheme=");
        String pkg = value(items, "package=");
        String fallback = value(items, "S.browser_fallback_url=");
        if (scheme != null && NEVER_EXTERNAL.contains(scheme.toLowerCase(Locale.ROOT))) {
            return CheckoutCommand.block();
        }
        String data = url.substring("intent:".length(), at);
        if (scheme != null) {
            data = scheme + ":" + data;
        }
        if (hostPackage.equals(pkg)) {
            // Never launch this app from a page: decide the URL it carries.
            CheckoutCommand inner = decide(data, currentUrl, mainFrame, gesture);
            return inner.override ? inner : CheckoutCommand.load(data);
        }
        String app = pkg != null ? (device.isInstalled(pkg) ? pkg : null) : (scheme == null ? null : device.packageForScheme(scheme));
        if (app != null) {
            // As Chrome launches it from a page: BROWSABLE added, no explicit component, no selector.
            List<String> safe = new ArrayList<>();
            for (String item : items) {
                if (item.equals("SEL")) {
                    break;
                }
                if (!item.startsWith("component=") && !item.startsWith("launchFlags=") && !item.equals("end")) {
                    safe.add(item);
                }
            }
            if (!safe.contains(BROWSABLE)) {
                safe.add(BROWSABLE);
            }
            safe.add("end");
            return CheckoutCommand.startActivity("intent-uri", url.substring(0, at) + "#Intent;" + String.join(";", safe));
        }
        if (fallback != null && (fallback.startsWith("https://") || fallback.startsWith("http://"))) {
            CheckoutCommand then = decide(fallback, currentUrl, mainFrame, false);
            return then.override ? then : CheckoutCommand.load(fallback);
        }
        return CheckoutCommand.block();
    }

    private static String value(List<String> items, String key) {
        for (String item : items) {
            if (item.equals("SEL")) {
                return null;
            }
            if (item.startsWith(key)) {
                return URLDecoder.decode(item.substring(key.length()), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** paymentUrl, with extra query items in any order. */
    private boolean isPaymentUrl(URI uri) {
        URI payment = parse(paymentUrl);
        if (payment == null || !sameOrigin(uri, payment) || !path(uri).equals(path(payment))) {
            return false;
        }
        Set<String> asked = new HashSet<>(queryItems(uri));
        return asked.containsAll(queryItems(payment));
    }

    private static boolean sameResource(URI a, URI b) {
        return b != null && sameOrigin(a, b) && path(a).equals(path(b)) && queryItems(a).equals(queryItems(b));
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost() != null
            && a.getHost().equalsIgnoreCase(b.getHost()) && port(a) == port(b);
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "http".equalsIgnoreCase(u.getScheme()) ? 80 : 443;
    }

    private static String path(URI u) {
        String p = u.getRawPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    private static List<String> queryItems(URI u) {
        String q = u.getRawQuery();
        return q == null || q.isEmpty() ? new ArrayList<>() : Arrays.asList(q.split("&"));
    }

    private static URI parse(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            return null;
        }
    }
}

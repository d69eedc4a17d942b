package com.example.shop.checkout;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the app does with one navigation: what {@code shouldOverrideUrlLoading} returns and the one thing it does
 * next, with the names the decision table uses (Plainview's {@code AndroidWebViewCommand}).
 *
 * <p>{@code then}: nothing, start-activity (with {@code launch}: intent-uri, view-non-browser or view),
 * open-browser, finish-complete, finish-canceled, show-terms, load-payment-page, load. {@code url} is the URL the
 * step uses, null when it uses none.
 */
public final class CheckoutCommand {
    public final boolean override;
    public final String then;
    public final String launch;
    public final String url;

    public CheckoutCommand(boolean override, String then, String launch, String url) {
        this.override = override;
        this.then = then;
        this.launch = launch;
        this.url = url;
    }

    public static CheckoutCommand allow() { return new CheckoutCommand(false, "nothing", null, null); }
    public static CheckoutCommand block() { return new CheckoutCommand(true, "nothing", null, null); }
    public static CheckoutCommand finish(String outcome) { return new CheckoutCommand(true, "finish-" + outcome, null, null); }
    public static CheckoutCommand loadPaymentPage(String url) { return new CheckoutCommand(true, "load-payment-page", null, url); }
    public static CheckoutCommand load(String url) { return new CheckoutCommand(true, "load", null, url); }
    public static CheckoutCommand openBrowser(String url) { return new CheckoutCommand(true, "open-browser", null, url); }
    public static CheckoutCommand startActivity(String launch, String url) { return new CheckoutCommand(true, "start-activity", launch, url); }

    /**
     * The same command. Two intent URIs are the same intent when the part before {@code #Intent;} is equal and they
     * hold the same {@code ;}-separated items in any order, as {@code Intent.parseUri} reads them.
     */
    public boolean sameAs(CheckoutCommand other) {
        if (override != other.override || !Objects.equals(then, other.then) || !Objects.equals(launch, other.launch)) {
            return false;
        }
        if ("intent-uri".equals(launch) && url != null && other.url != null) {
            return intentBase(url).equals(intentBase(other.url)) && intentItems(url).equals(intentItems(other.url));
        }
        return Objects.equals(url, other.url);
    }

    private static String intentBase(String uri) {
        int at = uri.indexOf("#Intent;");
        return at < 0 ? uri : uri.substring(0, at);
    }

    private static Set<String> intentItems(String uri) {
        int at = uri.indexOf("#Intent;");
        if (at < 0) {
            return new HashSet<>();
        }
        return new HashSet<>(Arrays.asList(uri.substring(at + "#Intent;".length()).split(";", -1)));
    }

    @Override
    public String toString() {
        return "override=" + override + " then=" + then + (launch == null ? "" : " launch=" + launch)
            + (url == null ? "" : " url=" + url);
    }
}

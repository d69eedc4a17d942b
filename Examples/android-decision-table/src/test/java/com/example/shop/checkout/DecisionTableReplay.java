package com.example.shop.checkout;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The app's unit test: every row of the decision table, asked of the app's own {@link CheckoutPolicy}, must give
 * the command the table says. A plain {@code main} (no JUnit needed); in an app it is one JUnit test looping over
 * the rows. Exit status 0 when every row matches, 1 when one does not (each printed), 2 when the table does not read.
 *
 * <p>Usage: {@code java DecisionTableReplay TABLE [PACKAGE[=SCHEME,…]]…}: the apps installed on the device the
 * table was made for (its {@code --env}), with the schemes each handles.
 */
public final class DecisionTableReplay {
    // The shop's checkout, as the app configures its web view for the order under test (Pages/common/android-policy.yaml).
    static final String PAYMENT_URL =
        "https://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=7f3e9a";
    static final String COMPLETE_URL = "https://shop.example.com/payment-completed";
    static final String CANCEL_URL = "https://shop.example.com/payment-canceled";
    static final String HOST_PACKAGE = "com.example.shop";

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: DecisionTableReplay TABLE [PACKAGE[=SCHEME,...]]...");
            System.exit(2);
        }
        Map<String, String> schemes = new HashMap<>();
        Map<String, Boolean> installed = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split("=", 2);
            installed.put(parts[0], true);
            if (parts.length == 2) {
                for (String s : parts[1].split(",")) {
                    schemes.put(s, parts[0]);
                }
            }
        }
        Device device = new Device() {
            public boolean isInstalled(String packageName) { return installed.containsKey(packageName); }
            public String packageForScheme(String scheme) { return schemes.get(scheme); }
        };
        CheckoutPolicy policy = new CheckoutPolicy(PAYMENT_URL, COMPLETE_URL, CANCEL_URL, HOST_PACKAGE, device);
        List<DecisionTable.Row> rows;
        try {
            rows = DecisionTable.read(Path.of(args[0]));
        } catch (Exception e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
            return;
        }
        int failed = 0;
        for (DecisionTable.Row row : rows) {
            CheckoutCommand expected = row.expected();
            CheckoutCommand actual = policy.decide(
                row.get("url"), row.get("current"), !"sub".equals(row.get("frame")), row.flag("gesture"));
            if (!actual.sameAs(expected)) {
                failed++;
                System.out.println(args[0] + ":" + row.line + ": " + row.get("url") + " (" + row.get("source") + ")");
                System.out.println("  expected " + expected + "  [" + row.get("rule") + ": " + row.get("reason") + "]");
                System.out.println("  got      " + actual);
            }
        }
        if (failed > 0) {
            System.out.println(failed + " of " + rows.size() + " rows differ");
            System.exit(1);
        }
        System.out.println("replayed " + rows.size() + " rows: the app answers every one as the policy does");
    }
}

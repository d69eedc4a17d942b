package com.example.shop.checkout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the table `plainview decision-table` writes (docs/cli.md): a format line, a header line naming the
 * columns, then one tab-separated row per navigation. Fields escape backslash, tab, line feed and carriage
 * return as {@code \\ \t \n \r}; an empty field is "none". JDK only: no JSON library, no Android types.
 */
public final class DecisionTable {
    /** The format line this reader understands. */
    public static final String FORMAT_LINE = "plainview-decision-table\t1";

    /** One row: its fields by column name, and its line in the file (for messages). */
    public static final class Row {
        public final int line;
        private final Map<String, String> fields;

        Row(int line, Map<String, String> fields) {
            this.line = line;
            this.fields = fields;
        }

        /** The field, or null when it is empty (none). */
        public String get(String column) {
            if (!fields.containsKey(column)) {
                throw new IllegalArgumentException("the table has no column " + column);
            }
            String value = fields.get(column);
            return value.isEmpty() ? null : value;
        }

        public boolean flag(String column) {
            return "true".equals(get(column));
        }

        /** What the row says the app must do. */
        public CheckoutCommand expected() {
            return new CheckoutCommand(flag("override"), get("then"), get("launch"), get("then_url"));
        }
    }

    private DecisionTable() {}

    public static List<Row> read(Path path) throws IOException {
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(FORMAT_LINE)) {
            throw new IOException(path + ":1: expected the format line '" + FORMAT_LINE.replace("\t", "\\t") + "'");
        }
        if (lines.size() < 2) {
            throw new IOException(path + ":2: expected the header line");
        }
        String[] columns = lines.get(1).split("\t", -1);
        List<Row> rows = new ArrayList<>();
        for (int i = 2; i < lines.size(); i++) {
            String[] raw = lines.get(i).split("\t", -1);
            if (raw.length < columns.length) {
                throw new IOException(path + ":" + (i + 1) + ": expected " + columns.length + " fields, found " + raw.length);
            }
            Map<String, String> fields = new HashMap<>();
            for (int c = 0; c < columns.length; c++) {
                fields.put(columns[c], unescape(raw[c]));
            }
            rows.add(new Row(i + 1, fields));
        }
        return rows;
    }

    /** {@code \\} → backslash, {@code \t} → tab, {@code \n} → line feed, {@code \r} → carriage return. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char ch = field.charAt(i);
            if (ch != '\\' || i + 1 == field.length()) {
                out.append(ch);
                continue;
            }
            char next = field.charAt(++i);
            switch (next) {
                case 't': out.append('\t'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                default: out.append(next);
            }
        }
        return out.toString();
    }
}

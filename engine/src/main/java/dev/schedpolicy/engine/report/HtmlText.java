package dev.schedpolicy.engine.report;

import java.util.Locale;

/** Text for HTML: escaping and plain numbers, shared by the page and its charts. */
final class HtmlText {
    private HtmlText() {
    }

    static String num(final double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** Escapes text for HTML element content and double-quoted attributes. */
    static String esc(final String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}

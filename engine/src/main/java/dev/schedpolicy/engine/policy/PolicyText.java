package dev.schedpolicy.engine.policy;

/**
 * Policy text is printable ASCII. {@code trim()} silently drops control characters ({@code 'idle\u0001'} read as
 * idle) and look-alike digits from other scripts could pass a lenient number parser, so anything else is refused
 * here, before parsing, with the character named.
 */
final class PolicyText {
    private PolicyText() {
    }

    /** @return {@code text}, or "" for null */
    static String printable(final String field, final String text) {
        if (text == null) {
            return "";
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new InvalidPolicyException(field + " '" + shown(text) + "' contains " + String.format("U+%04X", (int) c)
                        + " at position " + (i + 1) + "; only printable ASCII is allowed (digits 0-9, letters, + - : = ,)");
            }
        }
        return text;
    }

    /** {@code text} with every non-printable character written as \\uXXXX, safe to echo in a message. */
    static String shown(final String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder();
        text.chars().forEach(c -> b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return b.toString();
    }
}

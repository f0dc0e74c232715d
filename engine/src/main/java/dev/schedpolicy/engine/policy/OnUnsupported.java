package dev.schedpolicy.engine.policy;

import java.util.Locale;

/** What a launch does when part of a policy cannot be applied on this machine. */
public enum OnUnsupported {
    FAIL,
    WARN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OnUnsupported parse(final String text) {
        if (text != null) {
            String t = PolicyText.printable("on-unsupported", text).trim().toLowerCase(Locale.ROOT);
            for (OnUnsupported o : values()) {
                if (o.label().equals(t)) {
                    return o;
                }
            }
        }
        throw new InvalidPolicyException("on-unsupported must be 'fail' or 'warn', not '" + PolicyText.shown(text) + "'");
    }
}

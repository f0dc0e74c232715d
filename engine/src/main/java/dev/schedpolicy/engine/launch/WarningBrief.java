package dev.schedpolicy.engine.launch;

/**
 * A launch warning in one short line, for a terminal where {@code run} is read as it runs. The engine writes its
 * warnings as "what happened: why; what to do" (e.g. "cannot apply nice 5: setpriority(...) failed with EACCES; the
 * target belongs to another user, or ..."): the brief is what happened, the full text stays for {@code --verbose},
 * the build page and docs/usage.md.
 */
public final class WarningBrief {
    private static final int MAX = 120;

    private WarningBrief() {
    }

    /** What happened, without the why and the advice; at most 120 characters. */
    public static String of(final String full) {
        int cut = firstOf(full, ": ", "; ");
        String head = cut < 0 ? full : full.substring(0, cut);
        return head.length() <= MAX ? head : head.substring(0, MAX - 3) + "...";
    }

    /** Whether {@link #of} leaves anything out. */
    public static boolean shortens(final String full) {
        return !of(full).equals(full);
    }

    private static int firstOf(final String text, final String... marks) {
        int best = -1;
        for (String m : marks) {
            int i = text.indexOf(m);
            if (i > 0 && (best < 0 || i < best)) {
                best = i;
            }
        }
        return best;
    }
}

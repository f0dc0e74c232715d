package dev.schedpolicy.engine.fleet;

import java.util.Locale;

/** Ages and durations as the fleet view words them. */
final class Durations {
    private Durations() {
    }

    /** "12 s", "5 min", "3 h", "2 d": the coarse age an administrator reads at a glance. */
    static String words(final long seconds) {
        if (seconds < 120) {
            return seconds + " s";
        }
        if (seconds < 2 * 3600) {
            return seconds / 60 + " min";
        }
        if (seconds < 2 * 86400) {
            return seconds / 3600 + " h";
        }
        return seconds / 86400 + " d";
    }

    /** "0.9 s" */
    static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}

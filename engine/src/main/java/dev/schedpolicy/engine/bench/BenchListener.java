package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;

/** Streams a benchmark's progress to the CLI or the Jenkins build log. All methods are called on the runner thread. */
public interface BenchListener {
    BenchListener NONE = new BenchListener() {
    };

    /** Before the first run: what will be done. */
    default void started(final String summary, final int runsPlanned) {
    }

    /** After every run (calibration, warm-up, baseline or cell). */
    default void progress(final Progress progress) {
    }

    default void warning(final String message) {
    }

    default void finished(final BenchReport report) {
    }

    /**
     * @param done       runs finished
     * @param total      runs planned
     * @param what       e.g. "nice19 load 2 rep 3"
     * @param result     e.g. "kept 93.1%"
     * @param elapsedSec since the start
     * @param etaSec     estimated seconds left
     */
    record Progress(int done, int total, String what, String result, double elapsedSec, double etaSec) {
        /** One progress line, e.g. {@code [12/57] nice19 load 2 rep 3: kept 93.1% | 0:42 elapsed, ETA 1:38}. */
        public String line() {
            return "[" + done + "/" + total + "] " + what + (result.isEmpty() ? "" : ": " + result) + " | "
                    + clock(elapsedSec) + " elapsed, ETA " + clock(etaSec);
        }

        static String clock(final double seconds) {
            long s = Math.max(0, Math.round(seconds));
            return s / 60 + ":" + String.format("%02d", s % 60);
        }
    }
}

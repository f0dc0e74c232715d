package dev.schedpolicy.cli;

import dev.schedpolicy.engine.launch.CommandLookup;
import dev.schedpolicy.engine.launch.PolicedLaunch;
import dev.schedpolicy.engine.measure.MeasureBook;
import dev.schedpolicy.engine.measure.StepMeasure;
import dev.schedpolicy.engine.measure.StepMeter;
import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code run --measure}: one step in a book of its own (the CLI knows no other launches, so no neighbours). */
final class MeasuredRun implements AutoCloseable {
    private final MeasureBook book;
    private final StepMeter meter;
    private boolean reported;

    private MeasuredRun(final MeasureBook book, final StepMeter meter) {
        this.book = book;
        this.meter = meter;
    }

    static MeasuredRun open(final List<String> command, final Policy policy) {
        MeasureBook book = MeasureBook.system();
        return new MeasuredRun(book, book.open(String.join(" ", command), policy.needsCgroup()));
    }

    /** Puts the meter's join prefix before the command, after checking the command itself can run (so a missing command
     * still gets its own message, not the shell's). */
    void prefix(final ProcessBuilder builder) throws IOException {
        CommandLookup.requireRunnable(builder);
        List<String> argv = new ArrayList<>(meter.commandPrefix());
        argv.addAll(builder.command());
        builder.command(argv);
    }

    void attach(final long pid) {
        meter.attach(pid);
    }

    /** The command runs under a CPU quota: the time it held the command back is its own figure, not in the wait. */
    void throttledBy(final PolicedLaunch launch) {
        meter.throttledBy(launch::throttledNanos);
    }

    void report(final PrintWriter err) {
        StepMeasure m = book.close(meter);
        reported = true;
        for (String line : m.describe()) {
            err.println("schedpolicy: measured: " + line);
        }
        err.flush();
    }

    @Override
    public void close() {
        if (!reported) {
            book.close(meter);
        }
    }
}

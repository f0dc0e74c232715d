package dev.schedpolicy.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process execution of the schedpolicy command line: its exit code and what it printed. */
record CliRun(int code, String out, String err) {
    static CliRun of(final String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    long stackTraceLines() {
        return err.lines().filter(l -> l.startsWith("\tat ")).count();
    }
}

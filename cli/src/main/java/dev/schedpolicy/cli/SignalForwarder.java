package dev.schedpolicy.cli;

import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.proc.ProcFs;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Forwards to the command every catchable signal whose default would kill schedpolicy and orphan the command,
 * instead of letting the JVM exit under it. Installed before the command starts, so a signal arriving during
 * the launch is held and delivered once the command exists. Every disposition here is a handler, never SIG_IGN:
 * exec resets handlers to the default but keeps ignored signals, and the command must start with a normal
 * child's dispositions. A terminal's Ctrl-C already reaches the command (same foreground process group), so
 * SIGINT is then caught without forwarding, as sudo does. SIGQUIT belongs to the JVM (a thread dump into the
 * command's stdout) and Java may not handle it: it is discarded natively, and Ctrl-\ reaches the command from
 * the terminal (jcmd and jstack, which knock with SIGQUIT, cannot attach to a running {@code run}). USR2 is
 * the JVM's suspend signal and ILL, FPE, SEGV, BUS, TRAP, ABRT and SYS report faults: they stay the JVM's.
 */
final class SignalForwarder implements AutoCloseable {
    private static final Map<String, Integer> FORWARDED = forwarded();
    private static final int SIGINT = 2;
    private static final int SIGQUIT = 3;
    private final Map<Signal, SignalHandler> previous = new HashMap<>();
    private final Kernel kernel;
    private final List<Integer> pending = new ArrayList<>();
    private long target;

    private SignalForwarder(final Kernel kernel) {
        this.kernel = kernel;
    }

    private static Map<String, Integer> forwarded() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("HUP", 1);
        m.put("INT", SIGINT);
        m.put("USR1", 10);
        m.put("ALRM", 14);
        m.put("TERM", 15);
        m.put("STKFLT", 16);
        m.put("XCPU", 24);
        m.put("XFSZ", 25);
        m.put("VTALRM", 26);
        m.put("PROF", 27);
        m.put("IO", 29);
        m.put("PWR", 30);
        return m;
    }

    /** The signal names forwarded to the command. */
    static List<String> forwardedNames() {
        return List.copyOf(FORWARDED.keySet());
    }

    static SignalForwarder install(final Kernel kernel) {
        SignalForwarder f = new SignalForwarder(kernel);
        kernel.discardSignal(SIGQUIT);
        boolean terminalForeground = inTerminalForeground();
        long ignored = ProcFs.system().signalSet(ProcessHandle.current().pid(), OptionalLong.empty(), "SigIgn").orElse(0);
        FORWARDED.forEach((name, number) -> {
            if ((ignored & 1L << number - 1) != 0) {
                return; // ignored by whoever started us (nohup, a background job): it stays ignored, for the command too
            }
            Signal signal = new Signal(name);
            SignalHandler handler = number == SIGINT && terminalForeground ? s -> { } : s -> f.deliver(number);
            try {
                f.previous.put(signal, Signal.handle(signal, handler));
            } catch (IllegalArgumentException e) {
                // this JVM keeps it (started with -Xrs): it does what it would without schedpolicy
            }
        });
        return f;
    }

    synchronized void forwardTo(final long pid) {
        target = pid;
        pending.forEach(n -> kernel.kill((int) pid, n));
        pending.clear();
    }

    private synchronized void deliver(final int number) {
        if (target == 0) {
            pending.add(number);
        } else {
            kernel.kill((int) target, number);
        }
    }

    /** /proc/self/stat field 8 (tpgid) equals field 5 (pgrp) when we are a terminal's foreground job. */
    private static boolean inTerminalForeground() {
        try {
            String line = Files.readString(Path.of("/proc/self/stat"));
            String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return f[5 - 3].equals(f[8 - 3]);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}

package dev.schedpolicy.cli;

import dev.schedpolicy.engine.linux.Kernel;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Forwards SIGINT, SIGTERM and SIGHUP sent to schedpolicy to the command instead of letting the JVM
 * exit under it. Installed before the command starts, so a signal arriving during the launch is held
 * and delivered once the command exists. A terminal's Ctrl-C already reaches the command (same
 * foreground process group), so SIGINT is forwarded only when schedpolicy is not in a terminal's
 * foreground group, as sudo does.
 */
final class SignalForwarder implements AutoCloseable {
    private static final Map<String, Integer> SIGNALS = Map.of("INT", 2, "TERM", 15, "HUP", 1);
    private final Map<Signal, SignalHandler> previous = new HashMap<>();
    private final Kernel kernel;
    private final List<Integer> pending = new ArrayList<>();
    private long target;

    private SignalForwarder(final Kernel kernel) {
        this.kernel = kernel;
    }

    static SignalForwarder install(final Kernel kernel) {
        SignalForwarder f = new SignalForwarder(kernel);
        boolean terminalForeground = inTerminalForeground();
        SIGNALS.forEach((name, number) -> {
            if (number == 2 && terminalForeground) {
                // ignore here: the command gets the terminal's own SIGINT, and must not get it twice
                f.previous.put(new Signal(name), Signal.handle(new Signal(name), SignalHandler.SIG_IGN));
                return;
            }
            Signal signal = new Signal(name);
            f.previous.put(signal, Signal.handle(signal, s -> f.deliver(number)));
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

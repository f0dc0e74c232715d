package dev.schedpolicy.engine.proc;

import dev.schedpolicy.engine.policy.CpuList;
import dev.schedpolicy.engine.policy.InvalidPolicyException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * The machine's online CPUs from /sys/devices/system/cpu/online (the kernel's list syntax). Not
 * availableProcessors(): the JVM derives that from affinity and cgroup quota, so it says nothing about
 * which CPU numbers exist.
 */
public final class OnlineCpus {
    public static final Path SYSTEM_FILE = Path.of("/sys/devices/system/cpu/online");

    private OnlineCpus() {
    }

    /** The online CPUs, or CPUs 0..availableProcessors-1 when the file cannot be read (no /sys). */
    public static CpuList read(final Path file) {
        try {
            return CpuList.parse(Files.readString(file).trim());
        } catch (IOException | InvalidPolicyException e) {
            BitSet guess = new BitSet();
            guess.set(0, Runtime.getRuntime().availableProcessors());
            return CpuList.of(guess);
        }
    }

    public static CpuList system() {
        return read(SYSTEM_FILE);
    }
}

package dev.schedpolicy.engine.policy;

import java.io.Serializable;
import java.util.Locale;

/**
 * An I/O priority as ioprio_set(2) takes it. Honoured by the bfq and mq-deadline I/O schedulers only.
 *
 * @param ioClass scheduling class
 * @param level   0 (highest) to 7 (lowest) for best-effort and realtime; 0 for idle
 */
public record IoPriority(IoClass ioClass, int level) implements Serializable {
    /** Default best-effort level of a nice-0 task: (nice + 20) / 5. Levels below it raise priority. */
    public static final int DEFAULT_BE_LEVEL = 4;

    /** Kernel I/O scheduling classes (include/uapi/linux/ioprio.h). */
    public enum IoClass {
        NONE(0), RT(1), BE(2), IDLE(3);

        private final int kernelValue;

        IoClass(final int kernelValue) {
            this.kernelValue = kernelValue;
        }

        public int kernelValue() {
            return kernelValue;
        }
    }

    public IoPriority {
        if (ioClass == null) {
            throw new InvalidPolicyException("I/O class must be given: idle, be:0..7 or rt:0..7");
        }
        if (level < 0 || level > 7) {
            throw new InvalidPolicyException("I/O priority level must be 0..7, not " + level);
        }
    }

    public static IoPriority idle() {
        return new IoPriority(IoClass.IDLE, 0);
    }

    public static IoPriority bestEffort(final int level) {
        return new IoPriority(IoClass.BE, level);
    }

    /** IOPRIO_PRIO_VALUE(class, data) = (class << 13) | data. */
    public int kernelValue() {
        return ioClass.kernelValue() << 13 | level;
    }

    public static IoPriority fromKernel(final int value) {
        int cls = value >> 13 & 0x7;
        int data = value & 0x1fff;
        for (IoClass c : IoClass.values()) {
            if (c.kernelValue() == cls) {
                return new IoPriority(c, c == IoClass.IDLE || c == IoClass.NONE ? 0 : Math.min(data, 7));
            }
        }
        throw new IllegalArgumentException("Unknown ioprio class " + cls + " in value " + value);
    }

    /** True for realtime I/O and for best-effort levels above the default a process gets anyway. */
    public boolean raises() {
        return ioClass == IoClass.RT || ioClass == IoClass.BE && level < DEFAULT_BE_LEVEL;
    }

    /** Parses {@code idle}, {@code be:N}, {@code beN}, {@code rt:N}, {@code rtN}. */
    public static IoPriority parse(final String text) {
        String t = PolicyText.printable("I/O priority", text).trim().toLowerCase(Locale.ROOT);
        if (t.equals("idle")) {
            return idle();
        }
        for (IoClass c : new IoClass[] {IoClass.BE, IoClass.RT}) {
            String prefix = c.name().toLowerCase(Locale.ROOT);
            if (t.startsWith(prefix)) {
                String rest = t.substring(prefix.length());
                if (rest.startsWith(":")) {
                    rest = rest.substring(1);
                }
                if (rest.matches("[0-7]")) {
                    return new IoPriority(c, Integer.parseInt(rest));
                }
            }
        }
        throw new InvalidPolicyException("I/O priority must be 'idle' or 'be:N' with N 4..7 (7 lowest; be:0..3 and rt:N raise"
                + " priority and need raising allowed), not '" + PolicyText.shown(text) + "'");
    }

    @Override
    public String toString() {
        return switch (ioClass) {
            case IDLE -> "idle";
            case NONE -> "none";
            default -> ioClass.name().toLowerCase(Locale.ROOT) + ":" + level;
        };
    }
}

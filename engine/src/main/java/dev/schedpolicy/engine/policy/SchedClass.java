package dev.schedpolicy.engine.policy;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Linux scheduling classes a policy may ask for, with their kernel numbers (include/uapi/linux/sched.h). */
public enum SchedClass {
    NORMAL(0, false),
    BATCH(3, false),
    IDLE(5, false),
    /** Realtime classes are accepted only when the embedder allows raising priority. */
    FIFO(1, true),
    RR(2, true);

    private final int kernelValue;
    private final boolean realtime;

    SchedClass(final int kernelValue, final boolean realtime) {
        this.kernelValue = kernelValue;
        this.realtime = realtime;
    }

    public int kernelValue() {
        return kernelValue;
    }

    public boolean isRealtime() {
        return realtime;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The class for a kernel policy number, or {@code null} for one we do not model (deadline, ext). */
    public static SchedClass fromKernel(final int value) {
        for (SchedClass c : values()) {
            if (c.kernelValue == value) {
                return c;
            }
        }
        return null;
    }

    /** Human name of any kernel policy number, including ones we never set. */
    public static String kernelName(final int value) {
        SchedClass known = fromKernel(value);
        if (known != null) {
            return known.label();
        }
        return switch (value) {
            case 6 -> "deadline";
            case 7 -> "ext";
            default -> "policy " + value;
        };
    }

    static String allowedLabels() {
        return Arrays.stream(values()).filter(c -> !c.realtime).map(SchedClass::label)
                .collect(Collectors.joining(", "));
    }
}

package dev.schedpolicy.engine.launch;

/**
 * This JVM, told apart from another JVM of the same PID: an inbound Jenkins agent whose connection drops execs itself
 * anew (remoting's restarter), keeping its PID, and what the earlier JVM left behind looks alive by its PID alone.
 */
public final class ThisJvm {
    /** A JVM-wide property, so every copy of the engine in one JVM (one per Jenkins connection) names it the same. */
    private static final String PROPERTY = "dev.schedpolicy.jvm";

    private ThisJvm() {
    }

    /** Drawn once per JVM and kept where every copy of the engine the JVM loads reads it; a JVM that execs starts without it. */
    public static String token() {
        String drawn = Long.toHexString(Double.doubleToLongBits(Math.random())) + "-" + System.nanoTime();
        Object kept = System.getProperties().putIfAbsent(PROPERTY, drawn);
        return kept == null ? drawn : kept.toString();
    }
}

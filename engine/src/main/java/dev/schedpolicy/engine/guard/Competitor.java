package dev.schedpolicy.engine.guard;

/** A process the guard may lower: its PID and its command name (for the report; never its arguments). */
public record Competitor(long pid, String comm) {
    @Override
    public String toString() {
        return comm + " " + pid;
    }
}

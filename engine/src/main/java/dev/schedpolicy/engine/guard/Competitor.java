package dev.schedpolicy.engine.guard;

import java.io.Serializable;

/** A process the guard may lower: its PID and its command name (for the report; never its arguments). */
public record Competitor(long pid, String comm) implements Serializable {
    @Override
    public String toString() {
        return comm + " " + pid;
    }
}

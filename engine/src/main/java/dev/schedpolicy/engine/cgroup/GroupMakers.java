package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether the process a group's name points to may still be the one that made it. A name carries its maker's PID, and
 * PIDs wrap (32,768 of them by default, used up within minutes on a busy build machine): an unrelated process that
 * holds the PID later kept a crashed run's empty group from ever being swept while it lived. A group's directory
 * keeps the time it was made (cgroupfs sets it at mkdir and changes it only on an explicit touch), and a maker is
 * never younger than its group.
 */
public final class GroupMakers {
    /**
     * A process's start instant is derived from the boot time in whole seconds, and wall clocks get stepped: a PID
     * counts as taken by another process only when that process started clearly after the group was made. A PID
     * reused within this margin keeps its group until the PID is free again, which is the safe side.
     */
    static final Duration MARGIN = Duration.ofSeconds(30);

    private GroupMakers() {
    }

    /** False when no process has {@code pid}, or the one that has it started after {@code group} was made. */
    public static boolean mayStillRun(final long pid, final Path group) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            return false;
        }
        Optional<Instant> started = process.get().info().startInstant();
        Instant made;
        try {
            made = Files.getLastModifiedTime(group).toInstant();
        } catch (IOException e) {
            return true; // gone or unreadable: nothing to sweep, and no grounds to call the PID reused
        }
        return started.isEmpty() || !started.get().isAfter(made.plus(MARGIN));
    }
}

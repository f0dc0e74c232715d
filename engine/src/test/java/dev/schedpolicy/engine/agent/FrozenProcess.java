package dev.schedpolicy.engine.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A process held by the cgroup v1 freezer, where a SIGKILL waits until it is thawed: how a test makes a process outlive
 * its SIGKILL, as one in uninterruptible sleep does on a loaded machine. Thawed and its freezer group removed on close.
 */
final class FrozenProcess implements AutoCloseable {
    private static final Path FREEZER = Path.of("/sys/fs/cgroup/freezer");
    private final Path group;

    private FrozenProcess(final Path group) {
        this.group = group;
    }

    /** Skips the test (with the reason) where no writable v1 freezer is mounted, as on a cgroup v2 machine. */
    static void assumeFreezer() {
        assumeTrue(Files.isWritable(FREEZER) && Files.exists(FREEZER.resolve("cgroup.procs")),
                "needs a writable cgroup v1 freezer at " + FREEZER + " to hold a process past SIGKILL");
    }

    static FrozenProcess freeze(final long pid) throws IOException {
        assumeFreezer();
        Path group = FREEZER.resolve("schedpolicy-test-frozen-" + pid);
        Files.createDirectory(group);
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid));
        Files.writeString(group.resolve("freezer.state"), "FROZEN");
        return new FrozenProcess(group);
    }

    void thaw() throws IOException {
        Files.writeString(group.resolve("freezer.state"), "THAWED");
    }

    @Override
    public void close() throws IOException {
        if (Files.exists(group)) {
            thaw();
        }
    }

    /** After the process has ended (the freezer group cannot go while it holds a task). */
    void remove() throws IOException {
        Files.deleteIfExists(group);
    }
}

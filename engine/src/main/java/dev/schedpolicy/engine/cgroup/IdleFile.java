package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;

/** cpu.idle is the same file in v1 and v2 and arrived with Linux 5.15; older kernels lack it. */
final class IdleFile {
    private IdleFile() {
    }

    static void write(final CgroupFiles files, final Path file) {
        if (!files.exists(file)) {
            throw new CgroupUnsupportedException("cannot set cgroup idle: " + file + " does not exist; cpu.idle"
                    + " needs Linux 5.15 or later (use SCHED_IDLE per task or a low cpu weight instead)", file);
        }
        files.write(file, "1");
    }

    static boolean read(final CgroupFiles files, final Path group) {
        Path file = group.resolve("cpu.idle");
        return files.exists(file) && "1".equals(files.read(file).trim());
    }
}

package dev.schedpolicy.engine.agent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether any process still lives in a cpu cgroup, found from /proc/PID/cgroup so it needs neither the
 * cgroupfs mount point nor the cgroup version. Jenkins' shell steps return while their script keeps
 * running in the background, so a launch's group may be removed only once it is empty.
 */
final class GroupOccupancy {
    private final Path procRoot;

    GroupOccupancy(final Path procRoot) {
        this.procRoot = procRoot;
    }

    /**
     * @param cpuCgroup the group as /proc/PID/cgroup shows it for the cpu controller (v1) or the unified
     *                  hierarchy (v2); a path equal on both counts as occupied, which only delays removal
     */
    boolean occupied(final String cpuCgroup) {
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(procRoot, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path pid : pids) {
                if (inGroup(pid.resolve("cgroup"), cpuCgroup)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return true; // cannot tell: keep the group rather than kill a running build
        }
    }

    private static boolean inGroup(final Path cgroupFile, final String target) {
        List<String> lines;
        try {
            lines = Files.readAllLines(cgroupFile);
        } catch (NoSuchFileException e) {
            return false; // the process exited while we looked
        } catch (IOException e) {
            return false;
        }
        for (String line : lines) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && f[2].equals(target) && (f[1].isEmpty() || List.of(f[1].split(",")).contains("cpu"))) {
                return true;
            }
        }
        return false;
    }
}

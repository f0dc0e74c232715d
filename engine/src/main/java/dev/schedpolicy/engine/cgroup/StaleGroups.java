package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Removes schedpolicy-* groups left behind by crashed runs. Only empty ones: a group holding processes is
 * still doing someone's work. And only those whose creator is gone (its PID free, or held by a process that
 * started after the group was made, see {@link GroupMakers}): a live run makes its group empty and fills it a
 * moment later, and removing it in between would break that run.
 */
final class StaleGroups {
    private StaleGroups() {
    }

    static List<Path> sweep(final CgroupFiles files, final Path parent) {
        List<Path> removed = new ArrayList<>();
        for (Path child : files.childDirs(parent)) {
            if (isStale(files, child)) {
                try {
                    files.rmdir(child);
                    removed.add(child);
                } catch (IOException e) {
                    // filled or removed by someone else since we looked: not stale after all, or already gone
                }
            }
        }
        return removed;
    }

    private static boolean isStale(final CgroupFiles files, final Path child) {
        if (!GroupNames.isOurs(child)) {
            return false;
        }
        OptionalLong creator = GroupNames.creatorPid(child);
        if (creator.isEmpty() || GroupMakers.mayStillRun(creator.getAsLong(), child)) {
            return false;
        }
        try {
            return files.readIds(child.resolve("cgroup.procs")).isEmpty() && files.childDirs(child).isEmpty();
        } catch (CgroupException e) {
            // another engine sharing the parent swept it between our listing and this read: gone, so not ours to remove
            return false;
        }
    }
}

package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.cgroup.CgroupUsage;

import java.util.Optional;

/** A child cpu cgroup made for one launch; closing it kills what is left inside and removes it. */
public interface CpuGroupLease extends AutoCloseable {
    /** The path as /proc/PID/cgroup shows it for the cpu controller. */
    String path();

    /** cgroup v1 can move a single thread (tasks file); v2 cannot, so v2 launches park the child instead. */
    boolean canPlaceThreads();

    void placeThread(int tid);

    void placeProcess(long pid);

    /** Moves a thread placed here by inheritance back to the launching process's own cgroup; v1 only, like placeThread. */
    default void evictThread(final int tid) {
        throw new UnsupportedOperationException("this cgroup lease cannot move threads out: " + path());
    }

    Optional<CgroupUsage> usage();

    /** Removes the group if it is empty, without killing anything (see {@code CpuCgroup.removeIfEmpty}); false: kept. */
    boolean closeIfEmpty();

    @Override
    void close();
}

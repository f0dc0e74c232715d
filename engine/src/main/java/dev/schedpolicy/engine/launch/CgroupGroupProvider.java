package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CgroupUsage;
import dev.schedpolicy.engine.cgroup.CgroupVersion;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** Makes one child cpu cgroup per launch under a parent: by default the caller's own cpu cgroup. */
public final class CgroupGroupProvider implements CpuGroupProvider {
    private final CgroupSystem system;
    private final Optional<Path> parent;
    private volatile Path resolvedParent;

    /**
     * @param system the detected cgroup layout
     * @param parent where to create groups; empty: the caller's own cpu cgroup if writable
     */
    public CgroupGroupProvider(final CgroupSystem system, final Optional<Path> parent) {
        this.system = system;
        this.parent = parent;
    }

    /** Detects the machine's layout lazily, so launches that need no cgroup never touch cgroupfs. */
    public static CpuGroupProvider systemDefault() {
        return new CpuGroupProvider() {
            private volatile CgroupGroupProvider delegate;

            @Override
            public CpuGroupLease create(final Policy policy) {
                CgroupGroupProvider d = delegate;
                if (d == null) {
                    d = new CgroupGroupProvider(CgroupSystem.detect(), Optional.empty());
                    delegate = d;
                }
                return d.create(policy);
            }
        };
    }

    @Override
    public CpuGroupLease create(final Policy policy) {
        try {
            Path where = resolvedParent;
            if (where == null) {
                // resolving tries a scratch mkdir/rmdir; once per provider keeps it off every launch
                where = parent.isPresent() ? parent.get() : system.defaultParent(Optional.empty());
                system.sweepStale(where);
                resolvedParent = where;
            }
            CpuLimits limits = new CpuLimits(policy.cpuQuotaPercent(), policy.cpuWeight(), policy.cpuIdle());
            return new Lease(system, system.createChild(where, limits));
        } catch (CgroupException e) {
            throw new PolicyApplyException("cannot create a cgroup for '" + policy.toCompact() + "': " + e.getMessage(), e);
        }
    }

    private static final class Lease implements CpuGroupLease {
        private final CgroupSystem system;
        private final CpuCgroup group;
        private final AtomicBoolean closed = new AtomicBoolean();

        Lease(final CgroupSystem system, final CpuCgroup group) {
            this.system = system;
            this.group = group;
        }

        @Override
        public String path() {
            return group.cgroupPath();
        }

        @Override
        public boolean canPlaceThreads() {
            return group.version() == CgroupVersion.V1;
        }

        @Override
        public void placeThread(final int tid) {
            wrap(() -> group.placeThread(tid));
        }

        @Override
        public void evictThread(final int tid) {
            try {
                system.returnThreadHome(tid);
            } catch (CgroupException e) {
                // a user who may write only a delegated subtree cannot move it home: out of the group is the next best
                wrap(() -> group.evictThread(tid));
            }
        }

        @Override
        public void placeProcess(final long pid) {
            wrap(() -> group.placeProcess(pid));
        }

        @Override
        public Optional<CgroupUsage> usage() {
            try {
                return Optional.of(group.usage());
            } catch (CgroupException e) {
                return Optional.empty();
            }
        }

        @Override
        public boolean closeIfEmpty() {
            if (closed.get()) {
                return true;
            }
            if (!group.removeIfEmpty()) {
                return false;
            }
            closed.set(true);
            return true;
        }

        /**
         * Idempotent: both a kill path and try-with-resources may close the same launch. One that failed (the group
         * stayed busy) may be closed again, or removed by {@link #closeIfEmpty} once it empties.
         */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                try {
                    group.killAll();
                    group.close();
                } catch (RuntimeException e) {
                    closed.set(false);
                    throw e;
                }
            }
        }

        private void wrap(final Runnable placement) {
            try {
                placement.run();
            } catch (CgroupException e) {
                throw new PolicyApplyException("cannot place the launch in cgroup " + group.cgroupPath() + ": " + e.getMessage(), e);
            }
        }
    }
}

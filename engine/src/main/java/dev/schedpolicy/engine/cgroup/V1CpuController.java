package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** cgroup v1 cpu controller: cpu.cfs_*_us, cpu.shares, cpu.idle, per-thread `tasks`. */
final class V1CpuController implements CpuController {
    static final long MIN_SHARES = 2;
    static final long MAX_SHARES = 262_144;
    private static final long DEFAULT_SHARES = 1024;
    private static final long DEFAULT_WEIGHT = 100;

    private final CgroupFiles files;

    V1CpuController(final CgroupFiles files) {
        this.files = files;
    }

    /** The mapping systemd uses (cgroup_cpu_weight_to_shares), so a weight means the same under both. */
    static long sharesForWeight(final int weight) {
        return Math.max(MIN_SHARES, Math.min(MAX_SHARES, weight * DEFAULT_SHARES / DEFAULT_WEIGHT));
    }

    static int weightForShares(final long shares) {
        long weight = Math.round(shares * (double) DEFAULT_WEIGHT / DEFAULT_SHARES);
        return (int) Math.max(CpuLimits.MIN_WEIGHT, Math.min(CpuLimits.MAX_WEIGHT, weight));
    }

    @Override
    public CgroupVersion version() {
        return CgroupVersion.V1;
    }

    @Override
    public Optional<String> parentProblem(final Path parent) {
        return Optional.empty();
    }

    @Override
    public void prepareParent(final Path parent) {
        // v1 children get every controller of their hierarchy; nothing to enable.
    }

    @Override
    public String proofFile() {
        return "cpu.cfs_quota_us";
    }

    @Override
    public void apply(final Path group, final CpuLimits limits) {
        OptionalLong quotaUs = limits.quotaUs();
        if (quotaUs.isPresent()) {
            // Period first: the kernel checks quota against the period already in place.
            files.write(group.resolve("cpu.cfs_period_us"), Long.toString(CpuLimits.PERIOD_US));
            writeQuota(group.resolve("cpu.cfs_quota_us"), quotaUs.getAsLong());
        }
        if (limits.weight().isPresent()) {
            files.write(group.resolve("cpu.shares"), Long.toString(sharesForWeight(limits.weight().getAsInt())));
        }
        // Last: the kernel refuses cpu.shares (EINVAL) on a group that is already idle.
        if (limits.idle()) {
            IdleFile.write(files, group.resolve("cpu.idle"));
        }
    }

    private void writeQuota(final Path file, final long quotaUs) {
        try {
            files.write(file, Long.toString(quotaUs));
        } catch (CgroupException e) {
            if (e.getCause() instanceof IOException io && ErrnoWords.is(io, "EINVAL")) {
                throw new CgroupException(e.getMessage() + "; in cgroup v1 a child's quota may not exceed the"
                        + " quota of a limited parent", file, e.getCause());
            }
            throw e;
        }
    }

    @Override
    public CpuLimits read(final Path group) {
        long quota = Long.parseLong(files.read(group.resolve("cpu.cfs_quota_us")).trim());
        long period = Long.parseLong(files.read(group.resolve("cpu.cfs_period_us")).trim());
        long shares = Long.parseLong(files.read(group.resolve("cpu.shares")).trim());
        OptionalInt percent = quota < 0 ? OptionalInt.empty() : OptionalInt.of((int) (quota * 100 / period));
        boolean idle = IdleFile.read(files, group);
        return new CpuLimits(percent, idle ? OptionalInt.empty() : OptionalInt.of(weightForShares(shares)), idle);
    }

    @Override
    public void placeThread(final Path group, final long tid) {
        files.write(group.resolve("tasks"), Long.toString(tid));
    }

    /**
     * v1 cpu.stat counts throttling only; CPU time lives in the cpuacct controller, in the same directory when
     * cpu and cpuacct are co-mounted (systemd's cpu,cpuacct) or in a companion group otherwise.
     */
    @Override
    public CgroupUsage usage(final Path group, final Optional<Path> accountingGroup) {
        Map<String, Long> stat = files.readKeyed(group.resolve("cpu.stat"));
        OptionalLong usage = accountingGroup
                .map(dir -> OptionalLong.of(
                        Long.parseLong(files.read(dir.resolve("cpuacct.usage")).trim()) / 1000))
                .orElse(OptionalLong.empty());
        return new CgroupUsage(usage, stat.getOrDefault("nr_periods", 0L), stat.getOrDefault("nr_throttled", 0L),
                stat.getOrDefault("throttled_time", 0L) / 1000);
    }
}

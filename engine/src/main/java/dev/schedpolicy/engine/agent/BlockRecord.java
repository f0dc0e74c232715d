package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one policy block did, for the build page: requested and effective policy, each launch with its
 * kernel read-back, and cgroup usage once the block ended. Immutable: the {@code with*} methods
 * return updated copies.
 */
public final class BlockRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String blockKey;
    private final String kind;
    private final String node;
    private final String requested;
    private final String effective;
    private final ArrayList<String> warnings;
    private final ArrayList<LaunchRecord> launches;
    private final UsageRecord usage;

    public BlockRecord(final String blockKey, final String kind, final String node, final String requested,
            final String effective, final List<String> warnings) {
        this(blockKey, kind, node, requested, effective, warnings, List.of(), null);
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private BlockRecord(final String blockKey, final String kind, final String node, final String requested,
            final String effective, final List<String> warnings, final List<LaunchRecord> launches, final UsageRecord usage) {
        this.blockKey = blockKey;
        this.kind = kind;
        this.node = node;
        this.requested = requested;
        this.effective = effective;
        this.warnings = new ArrayList<>(warnings);
        this.launches = new ArrayList<>(launches);
        this.usage = usage;
    }

    public static BlockRecord started(final String kind, final String node, final BlockStart start) {
        List<String> all = new ArrayList<>(start.warnings());
        all.addAll(start.reach());
        return new BlockRecord(start.blockKey(), kind, node, start.requested(), start.effective(), all);
    }

    public BlockRecord withLaunch(final LaunchRecord launch) {
        List<LaunchRecord> all = new ArrayList<>(launches);
        all.add(launch);
        List<String> allWarnings = new ArrayList<>(warnings);
        for (String w : launch.warnings()) {
            if (!allWarnings.contains(w)) {
                allWarnings.add(w);
            }
        }
        return new BlockRecord(blockKey, kind, node, requested, effective, allWarnings, all, usage);
    }

    public BlockRecord withWarning(final String warning) {
        List<String> all = new ArrayList<>(warnings);
        all.add(warning);
        return new BlockRecord(blockKey, kind, node, requested, effective, all, launches, usage);
    }

    public BlockRecord finished(final UsageRecord value) {
        return new BlockRecord(blockKey, kind, node, requested, effective, warnings, launches, value);
    }

    public String blockKey() {
        return blockKey;
    }

    /** "withSchedPolicy", "wrapper" or "node default". */
    public String kind() {
        return kind;
    }

    public String node() {
        return node;
    }

    public String requested() {
        return requested;
    }

    public String effective() {
        return effective;
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public List<LaunchRecord> launches() {
        return List.copyOf(launches);
    }

    public int verifiedLaunches() {
        return (int) launches.stream().filter(LaunchRecord::verified).count();
    }

    /** Usage once the block ended; empty while it runs. */
    public Optional<UsageRecord> usage() {
        return Optional.ofNullable(usage);
    }

    public boolean isFinished() {
        return usage != null;
    }

    /** "idle on agent-1: 3 of 3 launches verified; no cgroup used". */
    public String summary() {
        return effective + " on " + node + ": " + verifiedLaunches() + " of " + launches.size() + " launch"
                + (launches.size() == 1 ? "" : "es") + " verified" + (usage == null ? " (running)" : "; " + usage.describe());
    }

    @Override
    public String toString() {
        return summary();
    }
}

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
    /**
     * The nodes its launches ran on, by Jenkins' node name ("" for the built-in node): a {@code node {}} nested in a
     * block runs its launches on another agent, whose registry holds their groups until the block's end reaches it.
     * Null in records saved before it was kept.
     */
    private final ArrayList<String> launchNodes;

    public BlockRecord(final String blockKey, final String kind, final String node, final String requested,
            final String effective, final List<String> warnings) {
        this(blockKey, kind, node, requested, effective, warnings, List.of(), null, List.of());
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private BlockRecord(final String blockKey, final String kind, final String node, final String requested,
            final String effective, final List<String> warnings, final List<LaunchRecord> launches, final UsageRecord usage,
            final List<String> launchNodes) {
        this.blockKey = blockKey;
        this.kind = kind;
        this.node = node;
        this.requested = requested;
        this.effective = effective;
        this.warnings = new ArrayList<>(warnings);
        this.launches = new ArrayList<>(launches);
        this.usage = usage;
        this.launchNodes = new ArrayList<>(launchNodes);
    }

    public static BlockRecord started(final String kind, final String node, final BlockStart start) {
        return new BlockRecord(start.blockKey(), kind, node, start.requested(), start.effective(), start.warnings());
    }

    public BlockRecord withLaunch(final LaunchRecord launch) {
        return withLaunchOn(null, launch);
    }

    /** With a launch that ran on the node named {@code launchNode} ("" for the built-in node; null: not known). */
    public BlockRecord withLaunchOn(final String launchNode, final LaunchRecord launch) {
        List<LaunchRecord> all = new ArrayList<>(launches);
        all.add(launch);
        List<String> allWarnings = new ArrayList<>(warnings);
        for (String w : launch.warnings()) {
            if (!allWarnings.contains(w)) {
                allWarnings.add(w);
            }
        }
        List<String> nodes = new ArrayList<>(launchNodes());
        if (launchNode != null && !nodes.contains(launchNode)) {
            nodes.add(launchNode);
        }
        return new BlockRecord(blockKey, kind, node, requested, effective, allWarnings, all, usage, nodes);
    }

    public BlockRecord withWarning(final String warning) {
        List<String> all = new ArrayList<>(warnings);
        all.add(warning);
        return new BlockRecord(blockKey, kind, node, requested, effective, all, launches, usage, launchNodes());
    }

    public BlockRecord finished(final UsageRecord value) {
        return new BlockRecord(blockKey, kind, node, requested, effective, warnings, launches, value, launchNodes());
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

    /** The nodes the block's launches ran on, by Jenkins' node name ("" for the built-in node), in first-launch order. */
    public List<String> launchNodes() {
        return launchNodes == null ? List.of() : List.copyOf(launchNodes);
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

package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent's answer when a block starts: the merged policy its launches will use, and the probe's
 * verdict. A failure is set when the policy is not allowed or cannot be applied here under
 * on-unsupported=fail; under warn the same findings are warnings.
 */
public final class BlockStart implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String blockKey;
    private final String requested;
    private final String effective;
    private final ArrayList<String> warnings;
    private final String failure;
    private final ArrayList<String> reach;
    private final String reachBrief;

    public BlockStart(final String blockKey, final String requested, final String effective, final List<String> warnings,
            final String failure) {
        this(blockKey, requested, effective, warnings, failure, List.of(), null);
    }

    /**
     * @param reach      the probe's full words on what the policy cannot reach on this agent (for the build page)
     * @param reachBrief the same in one short clause (for the console), or null when there is nothing to say
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public BlockStart(final String blockKey, final String requested, final String effective, final List<String> warnings,
            final String failure, final List<String> reach, final String reachBrief) {
        this.blockKey = blockKey;
        this.requested = requested;
        this.effective = effective;
        this.warnings = new ArrayList<>(warnings);
        this.failure = failure;
        this.reach = new ArrayList<>(reach);
        this.reachBrief = reachBrief;
    }

    public String blockKey() {
        return blockKey;
    }

    /** What the block asked for, in compact form. */
    public String requested() {
        return requested;
    }

    /** Agent default, enclosing blocks and this block merged (inner wins per field), in compact form. */
    public String effective() {
        return effective;
    }

    /** What the console shows for every block: a floor kept, a part that could not be applied. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * What the policy cannot reach on this agent, in the probe's full words: the same for every block on the agent, so
     * the console says it once per build ({@link ConsoleNotes#reach}) and the build page keeps it whole.
     */
    public List<String> reach() {
        return List.copyOf(reach);
    }

    public Optional<String> reachBrief() {
        return Optional.ofNullable(reachBrief);
    }

    /** The probe's words when the block must not run. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }
}

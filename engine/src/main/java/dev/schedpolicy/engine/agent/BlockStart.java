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

    public BlockStart(final String blockKey, final String requested, final String effective, final List<String> warnings,
            final String failure) {
        this.blockKey = blockKey;
        this.requested = requested;
        this.effective = effective;
        this.warnings = new ArrayList<>(warnings);
        this.failure = failure;
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

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The probe's words when the block must not run. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }
}

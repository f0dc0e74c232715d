package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared launch waiting in the agent JVM: its id (for release or abort) and how to change the command line. A
 * parked launch puts the shim before the command (tokens inserted at 0); a container start gets the runtime's
 * placement options right after its subcommand; an exec into a container of ours runs unchanged (no tokens).
 */
public final class PreparedLaunch implements Serializable {
    @Serial
    private static final long serialVersionUID = 2L;

    private final String id;
    private final int insertAt;
    private final ArrayList<String> tokens;
    /** The policy the launch runs under, compact ("": not given). */
    private final String policy;

    /** A parked launch: {@code commandPrefix} goes before the command. */
    public PreparedLaunch(final String id, final List<String> commandPrefix) {
        this(id, 0, commandPrefix);
    }

    /** A launch whose command line gets {@code tokens} inserted at index {@code insertAt}. */
    public PreparedLaunch(final String id, final int insertAt, final List<String> tokens) {
        this(id, insertAt, tokens, "");
    }

    private PreparedLaunch(final String id, final int insertAt, final List<String> tokens, final String policy) {
        this.id = id;
        this.insertAt = insertAt;
        this.tokens = new ArrayList<>(tokens);
        this.policy = policy;
    }

    /** This launch, running under {@code compact}: the request as the node's default floored it. */
    public PreparedLaunch under(final String compact) {
        return new PreparedLaunch(id, insertAt, tokens, compact);
    }

    /**
     * The policy the launch runs under, compact: what the author asked for as the default of the node it runs on
     * floored it (a {@code node {}} nested in a block runs under its own node's floor); "" when not given.
     */
    public String policy() {
        return policy == null ? "" : policy;
    }

    public String id() {
        return id;
    }

    /** The shim prefix of a parked launch; empty for a container launch. */
    public List<String> commandPrefix() {
        return insertAt == 0 ? List.copyOf(tokens) : List.of();
    }

    /** The command a launcher should start instead of {@code command}. */
    public List<String> command(final List<String> command) {
        if (insertAt > command.size()) {
            throw new IllegalArgumentException("the command " + command + " is shorter than the one this launch was prepared for");
        }
        List<String> all = new ArrayList<>(command.subList(0, insertAt));
        all.addAll(tokens);
        all.addAll(command.subList(insertAt, command.size()));
        return all;
    }

    /** Masks (hide-in-log flags) for {@link #command(List)}: the inserted tokens are never masked. */
    public boolean[] masks(final boolean[] masks) {
        if (masks == null) {
            return null;
        }
        boolean[] all = new boolean[masks.length + tokens.size()];
        System.arraycopy(masks, 0, all, 0, Math.min(insertAt, masks.length));
        if (masks.length > insertAt) {
            System.arraycopy(masks, insertAt, all, insertAt + tokens.size(), masks.length - insertAt);
        }
        return all;
    }

    /** As {@link #command(List)}; the name of the parked-launch era, kept for callers that only prepend. */
    public List<String> prefix(final List<String> command) {
        return command(command);
    }

    /** As {@link #masks(boolean[])}. */
    public boolean[] prefixMasks(final boolean[] masks) {
        return masks(masks);
    }
}

package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared launch waiting in the agent JVM: its id (for release or abort) and how to change the command line. A
 * parked launch puts the shim before the command (tokens inserted at 0); a container start gets the runtime's
 * placement options right after its subcommand; an exec into a container of ours runs as given, with one
 * {@code --env} marker before the container, by which its measurement finds its processes there.
 */
public final class PreparedLaunch implements Serializable {
    @Serial
    private static final long serialVersionUID = 3L;
    /** Jenkins' form for "put this before PATH" in a launch's environment (EnvVars.override). */
    static final String PATH_PREFIX_VARIABLE = "PATH+SCHEDPOLICY";

    private final String id;
    private final int insertAt;
    private final ArrayList<String> tokens;
    /** The policy the launch runs under, compact ("": not given). */
    private final String policy;
    /** Where the container client wrappers for the launch's own processes are ("": none; see {@link ClientPlacements}). */
    private final String clientWrappers;

    /** A parked launch: {@code commandPrefix} goes before the command. */
    public PreparedLaunch(final String id, final List<String> commandPrefix) {
        this(id, 0, commandPrefix);
    }

    /** A launch whose command line gets {@code tokens} inserted at index {@code insertAt}. */
    public PreparedLaunch(final String id, final int insertAt, final List<String> tokens) {
        this(id, insertAt, tokens, "", "");
    }

    private PreparedLaunch(final String id, final int insertAt, final List<String> tokens, final String policy,
            final String clientWrappers) {
        this.id = id;
        this.insertAt = insertAt;
        this.tokens = new ArrayList<>(tokens);
        this.policy = policy;
        this.clientWrappers = clientWrappers;
    }

    /** This launch, running under {@code compact}: the request as the node's default floored it. */
    public PreparedLaunch under(final String compact) {
        return new PreparedLaunch(id, insertAt, tokens, compact, clientWrappers);
    }

    /** This launch, whose processes find the container client wrappers in {@code dir} first on their PATH. */
    PreparedLaunch withClientWrappers(final String dir) {
        return new PreparedLaunch(id, insertAt, tokens, policy, dir);
    }

    /** The directory of the container client wrappers the launch's PATH starts with, if it has them. */
    public java.util.Optional<String> clientWrappers() {
        return clientWrappers == null || clientWrappers.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(clientWrappers);
    }

    /**
     * Environment overrides ("K=V", as a launcher takes them) for the launch: {@code envs}, then the wrappers' directory
     * before PATH, last so that it goes before whatever PATH the others set; one the build set itself is dropped.
     */
    public String[] environment(final String[] envs) {
        List<String> all = new ArrayList<>();
        for (String e : envs == null ? new String[0] : envs) {
            if (!e.startsWith(PATH_PREFIX_VARIABLE + "=")) {
                all.add(e);
            }
        }
        clientWrappers().ifPresent(dir -> all.add(PATH_PREFIX_VARIABLE + "=" + dir));
        return all.toArray(new String[0]);
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

package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** A parked launch waiting in the agent JVM: its id (for release or abort) and the argv prefix to prepend. */
public final class PreparedLaunch implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String id;
    private final ArrayList<String> commandPrefix;

    public PreparedLaunch(final String id, final List<String> commandPrefix) {
        this.id = id;
        this.commandPrefix = new ArrayList<>(commandPrefix);
    }

    public String id() {
        return id;
    }

    public List<String> commandPrefix() {
        return List.copyOf(commandPrefix);
    }

    /** The command a launcher should start: prefix, then the original argv. */
    public List<String> prefix(final List<String> command) {
        List<String> all = new ArrayList<>(commandPrefix);
        all.addAll(command);
        return all;
    }

    /** Masks (hide-in-log flags) for {@link #prefix(List)}: the prefix is never masked. */
    public boolean[] prefixMasks(final boolean[] masks) {
        if (masks == null) {
            return null;
        }
        boolean[] all = new boolean[masks.length + commandPrefix.size()];
        System.arraycopy(masks, 0, all, commandPrefix.size(), masks.length);
        return all;
    }
}

package dev.schedpolicy.engine.agent;

import java.util.Optional;

/**
 * The words a build log gets for a policy block. A build log is read by people who did not write the policy, on every
 * build: it says what runs under which policy and what the kernel verified, and at most one line on what the policy
 * cannot reach on this agent, once per build and agent, pointing to where an administrator finds the whole text
 * (the build page keeps the probe's words in the block's entry; the fleet view has the agent's row).
 */
public final class ConsoleNotes {
    private ConsoleNotes() {
    }

    /** "launches run under idle" or "launches run under idle (requested normal)". */
    public static String block(final BlockStart start) {
        return "launches run under " + start.effective()
                + (start.effective().equals(start.requested()) ? "" : " (requested " + start.requested() + ")");
    }

    /**
     * The one line on what the block's policy cannot reach on {@code node}; empty when it reaches everything the probe
     * looked at.
     *
     * @param buildEntry where the block's entry on the build page is (a URL, or a path when Jenkins has no root URL)
     * @param fleetRow   where the agent's row of the fleet view is
     */
    public static Optional<String> reach(final BlockStart start, final String node, final String buildEntry, final String fleetRow) {
        return start.reachBrief().map(brief -> "on " + node + ": " + brief + ". Details: " + buildEntry + " (this build) and "
                + fleetRow + " (this agent)");
    }
}

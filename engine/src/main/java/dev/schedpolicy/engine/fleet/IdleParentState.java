package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.cgroup.IdleParent;

/**
 * The machine-wide idle parent as the fleet view shows it: the probe's status plus the command that creates it (or
 * hands it to the agent's user), so an administrator can copy it from the page.
 *
 * @param path         where it is or would be
 * @param exists       the directory exists
 * @param idle         its cpu.idle reads 1
 * @param usable       the agent's user can create groups there and move processes in
 * @param detail       in words
 * @param setupCommand run as root on the agent's machine to create it, repair it or hand it to the agent's user
 */
public record IdleParentState(String path, boolean exists, boolean idle, boolean usable, String detail, String setupCommand) {

    /**
     * @param user the agent's login name; a root agent needs no {@code --user}, any other user must be handed the group
     *             or it cannot make children there
     */
    public static IdleParentState of(final IdleParent.Status status, final String user, final int euid) {
        String command = "sudo schedpolicy setup" + (euid == 0 ? "" : " --user " + user)
                + (status.path().endsWith("/" + IdleParent.NAME) ? "" : " --path " + status.path());
        return new IdleParentState(status.path(), status.exists(), status.idle(), status.usable(), status.detail(), command);
    }
}

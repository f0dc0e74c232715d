package dev.schedpolicy.engine.cgroup;

import java.util.Optional;

/**
 * Where a process sat before it was moved: its cpu cgroup and, where cpuacct is a hierarchy of its own (cgroup v1
 * with the controllers mounted apart), its cpuacct cgroup, each as /proc/PID/cgroup shows it. A group made with
 * {@link CgroupSystem#createChild} moves a process in both, so putting it back must too.
 */
public record ProcessHome(long pid, String cpuPath, Optional<String> cpuacctPath) {
}

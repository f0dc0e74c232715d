package dev.schedpolicy.engine.probe;

import java.util.List;

/**
 * Which processes per-task policies (nice, batch, idle) act against: the kernel weighs them only
 * within one task group (a cpu cgroup, or an autogroup = session when autogroup is on and the task
 * is in the root cpu cgroup).
 *
 * @param taskGroup          the caller's task group, e.g. "cgroup /build" or "autogroup /autogroup-42 in cgroup /"
 * @param sameGroupProcesses other processes in that task group: those per-task policies protect against
 * @param otherProcesses     processes in other task groups: only cgroup controls reach them
 * @param sameGroupSample    a few of the same-group processes ("PID comm")
 * @param warnings           plain-words warnings, with the controls that do work
 */
public record TaskGroupScope(String taskGroup, int sameGroupProcesses, int otherProcesses, List<String> sameGroupSample,
        List<String> warnings) {
}

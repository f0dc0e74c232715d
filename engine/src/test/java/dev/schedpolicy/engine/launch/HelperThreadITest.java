package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ProcessBuilder.start() makes a JDK "process reaper" thread whenever none is idle, from the thread that calls
 * it: the policy thread. That helper used to inherit the policy (here SCHED_IDLE, nice 19) and, on cgroup v1,
 * the launch's group, where it then waited for this and later children and kept the group from being removed.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class HelperThreadITest {
    @TempDir
    Path state;

    @Test
    void shouldLeaveNoJvmThreadUnderThePolicyOrInTheGroup() throws Exception {
        PolicyThreadLauncher launcher = new PolicyThreadLauncher(LaunchConfig.defaults().withStateDir(state));
        long self = ProcessHandle.current().pid();
        List<PolicedProcess> running = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        try {
            // several children alive at once, so every launch needs a fresh reaper thread
            for (int i = 0; i < 4; i++) {
                PolicedProcess p = launcher.start(new ProcessBuilder("sleep", "0.5"), Policy.parse("idle+nice19+io-idle+quota50+cpus=0"));
                running.add(p);
                groups.add(p.cgroupPath().orElseThrow());
            }
            // compared with the main thread, not with 0: the build itself may run under nice or batch
            TaskStat main = ProcFs.system().stat(self).orElseThrow();
            String allCpus = ProcFs.system().cpusAllowedList(self, OptionalLong.empty()).orElseThrow();
            List<String> affected = new ArrayList<>();
            for (long tid : ProcFs.system().threads(self)) {
                TaskStat t = ProcFs.system().threadStat(self, tid).orElse(null);
                if (t == null) {
                    continue;
                }
                String cpuGroup = ReadBack.cpuCgroup(ProcFs.system().cgroupLines(self, OptionalLong.of(tid)));
                String cpus = ProcFs.system().cpusAllowedList(self, OptionalLong.of(tid)).orElse("?");
                if (t.policy() != main.policy() || t.nice() != main.nice() || !cpus.equals(allCpus) || groups.contains(cpuGroup)) {
                    affected.add(tid + " (" + t.comm() + ") policy " + t.policy() + " nice " + t.nice() + " cpus " + cpus + " cgroup " + cpuGroup);
                }
            }
            assertThat(affected).as("JVM threads that inherited the policy or sit in a launch group").isEmpty();
        } finally {
            for (PolicedProcess p : running) {
                p.process().waitFor();
                p.close();
            }
        }
    }

    /**
     * Under a cgroup parent (here a stand-in for the machine-wide idle parent) a helper born in the launch group
     * goes back to the JVM's own cpu cgroup: left in the parent it would run idle for the JVM's life and keep the
     * parent from being removed (seen with bench under the idle parent, issue 18).
     */
    @Test
    void shouldSendHelperThreadsHomeNotIntoTheCgroupParent() throws Exception {
        CgroupSystem system = CgroupSystem.detect();
        org.junit.jupiter.api.Assumptions.assumeTrue(system.cpuHierarchy().isPresent()
                && system.cpuHierarchy().get().version() == dev.schedpolicy.engine.cgroup.CgroupVersion.V1
                && Files.isWritable(system.cpuHierarchy().get().dirOf("/")),
                "a writable v1 cpu hierarchy, where single threads move (CI runs as root on one)");
        long self = ProcessHandle.current().pid();
        String home = system.ownCpuCgroup();
        try (CpuCgroup parent = system.createChild(system.cpuHierarchy().get().dirOf("/"),
                new CpuLimits(OptionalInt.empty(), OptionalInt.empty(), true))) {
            PolicyThreadLauncher launcher = new PolicyThreadLauncher(LaunchConfig.defaults().withStateDir(state)
                    .withGroups(new CgroupGroupProvider(system, Optional.of(parent.path()))));
            List<PolicedProcess> running = new ArrayList<>();
            // children started plainly first keep every idle reaper thread busy (an earlier test may have left
            // some), so each policed launch below has to start a fresh one from inside its group
            List<Process> plain = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                plain.add(new ProcessBuilder("sleep", "1").start());
            }
            try {
                for (int i = 0; i < 4; i++) {
                    running.add(launcher.start(new ProcessBuilder("sleep", "0.5"), Policy.parse("cpu-idle")));
                }
                List<String> away = new ArrayList<>();
                for (long tid : ProcFs.system().threads(self)) {
                    String group = ReadBack.cpuCgroup(ProcFs.system().cgroupLines(self, OptionalLong.of(tid)));
                    if (group != null && !group.equals(home)) {
                        away.add(tid + " in " + group);
                    }
                }
                assertThat(away).as("JVM threads outside the JVM's own cpu cgroup " + home).isEmpty();
            } finally {
                for (PolicedProcess p : running) {
                    p.process().waitFor();
                    p.close();
                }
                for (Process p : plain) {
                    p.waitFor();
                }
            }
        }
    }
}

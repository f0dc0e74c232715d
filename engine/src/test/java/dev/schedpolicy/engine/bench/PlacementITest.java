package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The topologies as the kernel reports them: a new session, a sibling cgroup, and nothing left behind. */
@EnabledOnOs(OS.LINUX)
class PlacementITest {
    private static final ProcessBuilder SLEEP = new ProcessBuilder("sleep", "30");

    @Test
    void shouldStartABackgroundCopyInANewSessionForOtherSession() throws Exception {
        assumeThat(Files.isExecutable(Placement.SETSID)).as("util-linux setsid is installed by .ci/run").isTrue();
        try (Placement p = new Placement(Topology.OTHER_SESSION, CgroupSystem::detect, Optional.empty())) {
            Process proc = p.backgroundCopy(new ProcessBuilder(SLEEP.command()), BenchPolicy.DEFAULT).builder().start();
            try {
                long pid = proc.pid();
                // setsid makes it a session leader, then execs sleep in place
                waitUntil(() -> session(pid) == pid && comm(pid).equals("sleep"));
                assertThat(session(pid)).isEqualTo(pid).isNotEqualTo(session(ProcessHandle.current().pid()));
                assertThat(comm(pid)).isEqualTo("sleep");
            } finally {
                proc.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldStartTheVictimOfOtherSessionInASessionOfItsOwnNotTheBenchmarks() throws Exception {
        assumeThat(Files.isExecutable(Placement.SETSID)).as("util-linux setsid is installed by .ci/run").isTrue();
        try (Placement p = new Placement(Topology.OTHER_SESSION, CgroupSystem::detect, Optional.empty())) {
            Placement.Launch v = p.victim(new ProcessBuilder(SLEEP.command()), BenchPolicy.DEFAULT);
            Process victim = v.builder().start();
            Process background = p.backgroundCopy(new ProcessBuilder(SLEEP.command()), BenchPolicy.DEFAULT).builder().start();
            try {
                waitUntil(() -> session(victim.pid()) == victim.pid() && session(background.pid()) == background.pid());
                // its own task group under autogroup: neither this JVM's session nor the background's
                assertThat(session(victim.pid())).isNotEqualTo(session(ProcessHandle.current().pid()))
                        .isNotEqualTo(session(background.pid()));
                assertThat(v.where()).isEqualTo("own session");
            } finally {
                victim.destroyForcibly().waitFor();
                background.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldPutVictimAndBackgroundInSiblingCgroupsAndRemoveThem() throws Exception {
        CgroupSystem cgroups = writableCpuCgroups();
        Path own = cgroups.ownCpuCgroupDir();
        Process victim;
        Process background;
        String victimGroup;
        String backgroundGroup;
        try (Placement p = new Placement(Topology.OUTSIDE_AGENT, () -> cgroups, Optional.empty())) {
            Placement.Launch v = p.victim(new ProcessBuilder(SLEEP.command()), BenchPolicy.DEFAULT);
            Placement.Launch b = p.backgroundCopy(new ProcessBuilder(SLEEP.command()), BenchPolicy.of("nice19", 2));
            victim = v.builder().start();
            background = b.builder().start();
            try {
                waitUntil(() -> cgroups.cpuCgroupOf(victim.pid()).equals(v.movesInto().orElseThrow())
                        && cgroups.cpuCgroupOf(background.pid()).equals(b.movesInto().orElseThrow()));
                victimGroup = cgroups.cpuCgroupOf(victim.pid());
                backgroundGroup = cgroups.cpuCgroupOf(background.pid());
                p.verify(v, victim.pid());
                p.verify(b, background.pid());
                assertThat(victimGroup).isNotEqualTo(backgroundGroup).isNotEqualTo(cgroups.ownCpuCgroup());
                // siblings: both directly under the benchmark's own cpu cgroup
                assertThat(Path.of(victimGroup).getParent()).isEqualTo(Path.of(backgroundGroup).getParent());
            } finally {
                victim.destroyForcibly().waitFor();
                background.destroyForcibly().waitFor();
            }
        }
        assertThat(own.resolve(Path.of(victimGroup).getFileName())).doesNotExist();
        assertThat(own.resolve(Path.of(backgroundGroup).getFileName())).doesNotExist();
    }

    @Test
    void shouldLeaveAPolicyGroupToTheLauncherUnderTheCopysGroupOrTheConfiguredParent() {
        CgroupSystem cgroups = writableCpuCgroups();
        try (Placement p = new Placement(Topology.OUTSIDE_AGENT, () -> cgroups, Optional.empty())) {
            Placement.Launch b = p.backgroundCopy(new ProcessBuilder(SLEEP.command()), BenchPolicy.of("cpu-idle", 2));
            assertThat(b.movesInto()).isEmpty();
            assertThat(b.builder().command()).containsExactly("sleep", "30");
            assertThat(b.cgroupParent()).hasValueSatisfying(parent -> assertThat(parent.getParent())
                    .isEqualTo(cgroups.ownCpuCgroupDir()));
        }
        Path idleParent = Path.of("/sys/fs/cgroup/cpu/some.idle.parent");
        try (Placement p = new Placement(Topology.OUTSIDE_AGENT, () -> cgroups, Optional.of(idleParent))) {
            assertThat(p.backgroundCopy(new ProcessBuilder(SLEEP.command()), BenchPolicy.of("cpu-idle", 2)).cgroupParent())
                    .contains(idleParent);
        }
    }

    private static CgroupSystem writableCpuCgroups() {
        CgroupSystem cgroups = CgroupSystem.detect();
        assumeThat(cgroups.cpuHierarchy()).as("a cpu cgroup controller (CI: root on the v1 cpu hierarchy)").isPresent();
        assumeThat(cgroups.checkParent(cgroups.ownCpuCgroupDir()).usable())
                .as("a writable cpu cgroup (CI runs as root)").isTrue();
        return cgroups;
    }

    private static String comm(final long pid) throws Exception {
        return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).trim();
    }

    private static long session(final long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[3]); // state ppid pgrp session
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void waitUntil(final Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!check.ok() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }
}

package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CgroupVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An unprivileged user (uid 65534, through setpriv) with a delegated cgroup v2 subtree, as a Jenkins agent gets
 * from systemd's Delegate=yes: the subtree and its cgroup.procs, cgroup.subtree_control and cgroup.threads are
 * the user's. Inside it, schedpolicy run makes its group and the kernel reports the quota there; started
 * outside it, the kernel refuses the move (write access to the common ancestor is missing) and the user is told
 * why. Runs where cgroup v2 has the cpu controller and we are root (the kernel lab's v2 guests).
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DelegatedUserITest {
    private static final String USER = "65534";

    @TempDir
    Path copy;
    private Path delegated;
    private String classPath;

    @BeforeEach
    void delegateASubtree() throws Exception {
        CgroupSystem system = CgroupSystem.detect();
        assumeTrue(system.cpuHierarchy().map(h -> h.version() == CgroupVersion.V2).orElse(false),
                "needs the cpu controller on cgroup v2 (mode here: " + system.mode() + "); .ci/kernel-lab-suite.sh"
                        + " runs this in cgroup v2 guests");
        assumeTrue(Files.isWritable(system.ownCpuCgroupDir().resolve("cgroup.procs")) && new File("/usr/bin/setpriv").canExecute(),
                "needs root (to delegate a subtree) and setpriv (util-linux)");
        delegated = system.ownCpuCgroupDir().resolve("delegated-" + ProcessHandle.current().pid());
        Files.createDirectory(delegated);
        Files.writeString(delegated.resolve("cgroup.subtree_control"), "+cpu");
        Files.createDirectory(delegated.resolve("agent"));
        run("chown", USER + ":" + USER, delegated.toString(), delegated + "/cgroup.procs",
                delegated + "/cgroup.subtree_control", delegated + "/cgroup.threads", delegated + "/agent",
                delegated + "/agent/cgroup.procs", delegated + "/agent/cgroup.threads");
        classPath = readableClassPath();
    }

    @AfterEach
    void removeTheSubtree() throws IOException {
        if (delegated == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(delegated)) {
            for (Path dir : walk.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(dir);
            }
        }
    }

    @Test
    void shouldLaunchUnderAQuotaInsideTheDelegatedSubtree() throws Exception {
        Process p = asUser(true, "run", "--cgroup-parent", delegated.toString(), "--cpu-quota", "50", "--verify", "--",
                "sh", "-c", "g=$(sed -n 's/^0:://p' /proc/self/cgroup); echo \"$g\"; cat /sys/fs/cgroup$g/cpu.max");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        String group = "/" + copyRelative(delegated) + "/schedpolicy-";
        assertThat(out.lines().toList()).hasSize(2);
        assertThat(out.lines().toList().get(0)).contains(group);
        assertThat(out.lines().toList().get(1)).isEqualTo("50000 100000");
        assertThat(err).contains("kernel reports");
        assertThat(launchGroups()).isEmpty();
    }

    @Test
    void shouldExplainTheCommonAncestorRuleWhenStartedOutsideTheSubtree() throws Exception {
        Process p = asUser(false, "run", "--cgroup-parent", delegated.toString(), "--cpu-quota", "50", "--", "true");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(125);
        assertThat(err).contains("permission denied (EACCES)", "common ancestor", "delegated subtree");
        assertThat(launchGroups()).isEmpty();
    }

    private List<String> launchGroups() throws IOException {
        try (Stream<Path> children = Files.list(delegated)) {
            return children.map(d -> d.getFileName().toString()).filter(n -> n.startsWith("schedpolicy-")).toList();
        }
    }

    /** schedpolicy as the user; inside: moved into the subtree's agent leaf first, as systemd would start it. */
    private Process asUser(final boolean inside, final String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("sh", "-c",
                inside ? "echo $$ > \"$0\" && exec \"$@\"" : "exec \"$@\"", delegated + "/agent/cgroup.procs",
                "setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups", "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                Main.class.getName()));
        argv.addAll(List.of(args));
        return new ProcessBuilder(argv).directory(copy.toFile()).start();
    }

    /** The cgroup path of a directory under the v2 mount, without the leading slash. */
    private static String copyRelative(final Path dir) {
        return Path.of("/sys/fs/cgroup").relativize(dir).toString();
    }

    /** Our classpath lives under /root, which the user cannot read: copied where it can. */
    private String readableClassPath() throws IOException {
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path source = Path.of(entry);
            if (!Files.exists(source)) {
                continue;
            }
            Path target = copy.resolve(i++ + "-" + source.getFileName());
            try (Stream<Path> walk = Files.walk(source)) {
                for (Path p : walk.toList()) {
                    Path to = target.resolve(source.relativize(p).toString());
                    Files.copy(p, to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
            entries.add(target.toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void run(final String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
    }
}

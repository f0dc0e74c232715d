package dev.schedpolicy.engine.proc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The tree walk the benchmark's samplers use instead of the JDK's scan of every process. */
class ProcFsDescendantsTest {
    @Test
    void shouldWalkEveryThreadsChildrenParentsFirst(@TempDir final Path root) throws Exception {
        write(root, 10, 10, "11 ");
        write(root, 10, 12, "13\n"); // a child forked by a second thread of 10
        write(root, 11, 11, "14");
        write(root, 13, 13, "");
        write(root, 14, 14, "");
        assertThat(new ProcFs(root).descendants(10)).hasValue(List.of(11L, 13L, 14L));
    }

    @Test
    void shouldSayWhenTheKernelHasNoChildrenFilesAndGiveNothingForAProcessThatIsGone(@TempDir final Path root) throws Exception {
        Files.createDirectories(root.resolve("20/task/20"));
        assertThat(new ProcFs(root).descendants(20)).isEmpty();
        assertThat(new ProcFs(root).descendants(21)).hasValue(List.of());
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldFindTheSameLiveDescendantsAsTheJdk() throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "sleep 30 & sleep 30 & (sleep 30 & wait) & wait").start();
        try {
            long pid = p.pid();
            waitUntil(() -> ProcessHandle.of(pid).map(h -> h.descendants().count()).orElse(0L) == 4);
            List<Long> jdk = ProcessHandle.of(pid).orElseThrow().descendants().map(ProcessHandle::pid).sorted().toList();
            assertThat(ProcFs.system().descendants(pid).orElseThrow()).containsExactlyInAnyOrderElementsOf(jdk).hasSize(4);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldWalkATreeWhoseProcessesExitMeanwhileWithoutFailing() throws Exception {
        // a shell that forks short-lived children as fast as it can: some exit while their task directory is listed,
        // which the kernel answers with ESRCH, not ENOENT (a guard's period failed on it)
        Process churn = new ProcessBuilder("/bin/sh", "-c", "while :; do /bin/true & /bin/true & /bin/true & wait; done").start();
        try {
            ProcFs proc = ProcFs.system();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < until) {
                assertThat(proc.descendants(churn.pid())).isPresent();
                assertThat(proc.threads(churn.pid())).isNotEmpty();
            }
        } finally {
            churn.descendants().forEach(ProcessHandle::destroyForcibly);
            churn.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void write(final Path root, final long pid, final long tid, final String children) throws Exception {
        Path dir = Files.createDirectories(root.resolve(pid + "/task/" + tid));
        Files.writeString(dir.resolve("children"), children);
    }

    private static void waitUntil(final java.util.function.BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 200 && !done.getAsBoolean(); i++) {
            Thread.sleep(25);
        }
    }
}

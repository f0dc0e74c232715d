package dev.schedpolicy.engine.jna;

import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real kernel through JNA. Every change happens on a fresh thread that ends with the test body, because a
 * thread that lowered itself may not come back (and the JUnit thread must stay as it was). Each value is read
 * back twice: through the getter syscall and independently from /proc.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class JnaKernelITest {
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;
    private static final int SCHED_IDLE = 5;
    private static final int IOPRIO_BE_7 = 2 << 13 | 7;
    private static final int IOPRIO_IDLE = 3 << 13;
    /** Above PID_MAX_LIMIT (4M), so no task can have it. */
    private static final int NO_SUCH_TID = 0x3fff_ffff;

    private final Kernel kernel = JnaKernel.get();
    private final long self = ProcessHandle.current().pid();

    @Test
    void shouldReturnTheSameBindingEveryTime() {
        assertThat(JnaKernel.get()).isSameAs(kernel);
    }

    @Test
    void shouldReportTheThreadIdThatProcShows() throws Exception {
        int tid = onFreshThread(kernel::gettid);

        assertThat(tid).isNotEqualTo((int) self);
        assertThat(kernel.gettid()).isPositive();
        // the main thread's tid is the pid
        assertThat(ProcFs.system().threads(self)).contains((long) kernel.gettid());
    }

    @Test
    void shouldSetAndReadBackSchedBatch() throws Exception {
        Observed o = onFreshThread(() -> {
            int tid = kernel.gettid();
            kernel.setSchedAttr(tid, new SchedAttr(SCHED_BATCH, 0, 0, 0, 0));
            return observe(tid);
        });

        assertThat(o.attr().policy()).isEqualTo(SCHED_BATCH);
        assertThat(o.stat().policy()).isEqualTo(SCHED_BATCH);
    }

    @Test
    void shouldSetAndReadBackSchedIdleThroughTheCallingThreadAlias() throws Exception {
        Observed o = onFreshThread(() -> {
            kernel.setSchedAttr(0, new SchedAttr(SCHED_IDLE, 0, 0, 0, 0));
            return observe(kernel.gettid());
        });

        assertThat(o.attr().policy()).isEqualTo(SCHED_IDLE);
        assertThat(o.stat().policy()).isEqualTo(SCHED_IDLE);
    }

    @Test
    void shouldSetNiceThroughSchedAttrForBatch() throws Exception {
        Observed o = onFreshThread(() -> {
            int tid = kernel.gettid();
            kernel.setSchedAttr(tid, new SchedAttr(SCHED_BATCH, 0, 15, 0, 0));
            return observe(tid);
        });

        assertThat(o.attr().nice()).isEqualTo(15);
        assertThat(o.stat().nice()).isEqualTo(15);
    }

    @Test
    void shouldSetAndReadBackNiceOfOneThreadOnly() throws Exception {
        int before = ProcFs.system().stat(self).orElseThrow().nice();
        Observed o = onFreshThread(() -> {
            int tid = kernel.gettid();
            kernel.setNice(tid, 19);
            return observe(tid);
        });

        assertThat(o.attr().nice()).isEqualTo(19);
        assertThat(o.stat().nice()).isEqualTo(19);
        assertThat(o.attr().policy()).isEqualTo(SCHED_OTHER);
        assertThat(ProcFs.system().stat(self).orElseThrow().nice()).isEqualTo(before);
    }

    @Test
    void shouldSetAndReadBackBestEffortSevenIoPriority() throws Exception {
        int read = onFreshThread(() -> {
            int tid = kernel.gettid();
            kernel.setIoPriority(tid, IOPRIO_BE_7);
            return kernel.getIoPriority(tid);
        });

        assertThat(read).isEqualTo(IOPRIO_BE_7);
    }

    @Test
    void shouldSetAndReadBackIdleIoPriority() throws Exception {
        int read = onFreshThread(() -> {
            kernel.setIoPriority(0, IOPRIO_IDLE);
            return kernel.getIoPriority(kernel.gettid());
        });

        assertThat(read).isEqualTo(IOPRIO_IDLE);
    }

    @Test
    void shouldSetAndReadBackAffinity() throws Exception {
        int cpu = Runtime.getRuntime().availableProcessors() - 1;
        Object[] read = onFreshThread(() -> {
            int tid = kernel.gettid();
            BitSet one = new BitSet();
            one.set(cpu);
            kernel.setAffinity(tid, one);
            return new Object[] {kernel.getAffinity(tid),
                ProcFs.system().cpusAllowedList(self, OptionalLong.of(tid)).orElseThrow()};
        });

        BitSet expected = new BitSet();
        expected.set(cpu);
        assertThat(read[0]).isEqualTo(expected);
        assertThat(read[1]).isEqualTo(Integer.toString(cpu));
        assertThat(kernel.getAffinity(0).cardinality()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void shouldLeaveTheCallingThreadAsItWas() throws Exception {
        SchedAttr before = kernel.getSchedAttr(0);
        int ioBefore = kernel.getIoPriority(0);

        onFreshThread(() -> {
            kernel.setSchedAttr(0, new SchedAttr(SCHED_IDLE, 0, 19, 0, 0));
            kernel.setIoPriority(0, IOPRIO_IDLE);
            return null;
        });

        assertThat(kernel.getSchedAttr(0)).isEqualTo(before);
        assertThat(kernel.getIoPriority(0)).isEqualTo(ioBefore);
    }

    @Test
    void shouldNameCallTargetAndEsrchForAMissingTask() {
        assertThatThrownBy(() -> kernel.setSchedAttr(NO_SUCH_TID, new SchedAttr(SCHED_BATCH, 0, 0, 0, 0)))
                .isInstanceOfSatisfying(SyscallException.class, e -> {
                    assertThat(e.call()).isEqualTo("sched_setattr");
                    assertThat(e.target()).isEqualTo(NO_SUCH_TID);
                    assertThat(e.errno()).isEqualTo(3);
                    assertThat(e.isPermissionProblem()).isFalse();
                })
                .hasMessage("sched_setattr on task " + NO_SUCH_TID + " failed: ESRCH (no such process (it has already exited))");
        assertThatThrownBy(() -> kernel.getSchedAttr(NO_SUCH_TID)).isInstanceOf(SyscallException.class)
                .hasMessage("sched_getattr on task " + NO_SUCH_TID + " failed: ESRCH (no such process (it has already exited))");
        assertThatThrownBy(() -> kernel.getIoPriority(NO_SUCH_TID)).isInstanceOf(SyscallException.class)
                .hasMessageStartingWith("ioprio_get on task " + NO_SUCH_TID + " failed: ESRCH");
        assertThatThrownBy(() -> kernel.setNice(NO_SUCH_TID, 5)).isInstanceOf(SyscallException.class)
                .hasMessageStartingWith("setpriority(nice 5) on task " + NO_SUCH_TID + " failed: ESRCH");
        assertThatThrownBy(() -> kernel.getAffinity(NO_SUCH_TID)).isInstanceOf(SyscallException.class)
                .hasMessageStartingWith("sched_getaffinity on task " + NO_SUCH_TID + " failed: ESRCH");
    }

    @Test
    void shouldNameEinvalForAPolicyNumberTheKernelDoesNotKnow() throws Exception {
        SyscallException e = onFreshThread(() -> {
            try {
                kernel.setSchedAttr(0, new SchedAttr(42, 0, 0, 0, 0));
                return null;
            } catch (SyscallException thrown) {
                return thrown;
            }
        });

        assertThat(e).isNotNull();
        assertThat(e.errno()).isEqualTo(22);
        assertThat(e).hasMessage("sched_setattr on the calling thread failed: EINVAL (invalid argument (the kernel does not accept this value or policy))");
    }

    @Test
    void shouldNameEinvalForAnUnknownIoClassAndAnEmptyCpuSet() throws Exception {
        SyscallException io = onFreshThread(() -> catching(() -> kernel.setIoPriority(0, 7 << 13)));
        SyscallException cpus = onFreshThread(() -> catching(() -> kernel.setAffinity(0, new BitSet())));

        assertThat(io).hasMessageStartingWith("ioprio_set on the calling thread failed: EINVAL (invalid argument");
        assertThat(cpus).hasMessageStartingWith("sched_setaffinity({}) on the calling thread failed: EINVAL");
    }

    @Test
    void shouldReportAMissingProcessToKillAsFalse() {
        assertThat(kernel.kill(NO_SUCH_TID, 0)).isFalse();
        assertThat(kernel.kill((int) self, 0)).isTrue();
    }

    @Test
    void shouldMakeAFifoAndNameTheFileWhenItExists(@TempDir final Path dir) throws Exception {
        Path fifo = dir.resolve("f");
        kernel.mkfifo(fifo.toString(), 0600);

        assertThat(Files.getAttribute(fifo, "unix:mode")).isEqualTo(0010600);
        assertThatThrownBy(() -> kernel.mkfifo(fifo.toString(), 0600)).isInstanceOf(SyscallException.class)
                .hasMessage("mkfifo(" + fifo + ") on the calling thread failed: EEXIST (file exists)");
    }

    @Test
    void shouldReportTheEffectiveUserOfThisProcess() throws Exception {
        assertThat(kernel.geteuid()).isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    private record Observed(SchedAttr attr, TaskStat stat) {
    }

    private Observed observe(final int tid) {
        return new Observed(kernel.getSchedAttr(tid), ProcFs.system().threadStat(self, tid).orElseThrow());
    }

    private static SyscallException catching(final Runnable call) {
        try {
            call.run();
            return null;
        } catch (SyscallException e) {
            return e;
        }
    }

    /** Runs {@code body} on a new platform thread that ends right after, and returns its result or rethrows. */
    private static <T> T onFreshThread(final Callable<T> body) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(body.call());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "jna-kernel-test");
        t.start();
        t.join();
        if (failure.get() instanceof Exception e) {
            throw e;
        }
        if (failure.get() instanceof Error e) {
            throw e;
        }
        return result.get();
    }
}

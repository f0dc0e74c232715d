package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One parked launch. The engine holds both FIFOs open read-write from {@code prepare} on, so the
 * shim's opens never block and its read returns EOF if this JVM dies: the shim can only ever wait
 * while this handshake is alive.
 */
public final class Handshake implements AutoCloseable {
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "schedpolicy-handshake");
        t.setDaemon(true);
        return t;
    });

    private final Policy policy;
    private final LaunchConfig config;
    private final CpuGroupLease group;
    private final boolean ownsGroup;
    private final Path dir;
    private final List<String> prefix;
    private final List<String> warnings;
    private final FileChannel pidFifo;
    private final FileChannel goFifo;
    private boolean finished;
    /** Set once a release has begun: a second one is refused, an abort still reaches it while it waits. */
    private boolean releasing;
    private String abortReason;
    /** The wait for the shim's PID, cancelled by an abort so that the waiting release ends at once. */
    private Future<Long> reading;

    Handshake(final Policy policy, final LaunchConfig config, final CpuGroupLease group, final boolean ownsGroup,
            final Path dir, final List<String> prefix, final List<String> warnings) throws IOException {
        this.policy = policy;
        this.config = config;
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.dir = dir;
        this.prefix = List.copyOf(prefix);
        this.warnings = new ArrayList<>(warnings);
        this.pidFifo = FileChannel.open(dir.resolve("pid"), StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.goFifo = FileChannel.open(dir.resolve("go"), StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The handshake directory's name, unique per launch; the embedder may use it as a key. */
    public String id() {
        return dir.getFileName().toString();
    }

    /** Prepend this to the command: {@code /bin/sh SHIM DIR}. No argument contains '$'. */
    public List<String> commandPrefix() {
        return prefix;
    }

    /** Waits up to the configured handshake timeout; see {@link #release(Duration)}. */
    public PolicedLaunch release() {
        return release(config.handshakeTimeout());
    }

    /**
     * Waits for the shim's PID, applies and verifies the policy, and lets the command run.
     *
     * @throws PolicyApplyException when the shim never reported (it is then killed if known), or the
     *                              policy failed under on-unsupported=fail (the shim then exits 125
     *                              without running the command)
     */
    public PolicedLaunch release(final Duration timeout) {
        return release(timeout, pid -> { });
    }

    /**
     * As {@link #release(Duration)}; {@code beforeGo} gets the verified PID while the shim still waits, so whatever it
     * does (e.g. put the process into an accounting group) holds from the command's first instruction on.
     */
    public PolicedLaunch release(final Duration timeout, final java.util.function.LongConsumer beforeGo) {
        synchronized (this) {
            if (finished || releasing) {
                throw new IllegalStateException("handshake " + id() + " was already released or aborted");
            }
            releasing = true;
        }
        // the wait holds no lock: an abort from another thread (the build was stopped) must reach it at once
        long pid = awaitPid(timeout);
        return applyAndGo(pid, beforeGo);
    }

    private synchronized PolicedLaunch applyAndGo(final long pid, final java.util.function.LongConsumer beforeGo) {
        if (finished) {
            throw new LaunchAbortedException(abortReason);
        }
        try {
            if (group != null) {
                group.placeProcess(pid);
            }
            List<String> all = new ArrayList<>(warnings);
            all.addAll(new TaskPolicyApplier(config.kernel()).apply((int) pid, policy, group != null));
            AppliedPolicy applied = new ReadBack(config.kernel(), config.proc())
                    .read(pid, OptionalLong.empty(), "parked child", policy, group == null ? null : group.path())
                    .orElseThrow(() -> new PolicyApplyException("the parked process " + pid + " exited before it was released"));
            ReadBackVerdicts.check(applied, policy, all);
            beforeGo.accept(pid);
            finish("go");
            return new PolicedLaunch(pid, applied, all, group);
        } catch (RuntimeException e) {
            finish("refused: " + e.getMessage());
            closeOwnedGroup();
            throw e;
        }
    }

    /**
     * Tells a parked shim (if any) to exit 125 without running the command, and cleans up. A release waiting for the
     * shim's PID ends at once with a {@link LaunchAbortedException}.
     */
    public void abort(final String reason) {
        Future<Long> waiting;
        synchronized (this) {
            if (finished) {
                return;
            }
            abortReason = reason;
            finish("aborted: " + reason);
            closeOwnedGroup();
            waiting = reading;
        }
        if (waiting != null) {
            waiting.cancel(true);
        }
    }

    private void closeOwnedGroup() {
        if (ownsGroup && group != null) {
            group.close();
        }
    }

    @Override
    public void close() {
        abort("the launch was abandoned before release");
    }

    private long awaitPid(final Duration timeout) {
        Future<Long> read = READERS.submit(this::readPid);
        synchronized (this) {
            if (finished) {
                read.cancel(true);
                throw new LaunchAbortedException(abortReason);
            }
            reading = read;
        }
        try {
            return read.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (CancellationException e) {
            throw new LaunchAbortedException(abortedWith());
        } catch (TimeoutException e) {
            read.cancel(true);
            abort("no PID within " + timeout.toMillis() + " ms");
            throw new PolicyApplyException("the launched command did not reach the policy shim within " + timeout.toMillis()
                    + " ms (did the launch fail, was the prefix " + prefix + " dropped, or does it run inside a container"
                    + " block such as withDockerContainer, where the shim file of the agent does not exist?)");
        } catch (ExecutionException e) {
            if (abortedWith() != null) {
                throw new LaunchAbortedException(abortedWith()); // the abort closed the FIFO under the reader
            }
            abort("cannot read the PID");
            throw new PolicyApplyException("cannot read the PID from the launch handshake " + dir + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            read.cancel(true);
            abort("interrupted");
            throw new PolicyApplyException("interrupted while waiting for the launched command to report its PID", e);
        }
    }

    private synchronized String abortedWith() {
        return abortReason;
    }

    private long readPid() throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(32);
        while (buf.hasRemaining()) {
            int n = pidFifo.read(buf);
            if (n < 0) {
                throw new IOException("the PID FIFO closed early");
            }
            if (n > 0 && buf.get(buf.position() - 1) == '\n') {
                break;
            }
        }
        String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        if (!text.matches("\\d{1,10}")) {
            throw new IOException("the shim reported '" + text + "' instead of a PID");
        }
        return Long.parseLong(text);
    }

    /**
     * Takes the FIFOs away before answering and closing: a shim that opens them later then fails with
     * ENOENT and exits 125, instead of blocking forever on a FIFO nobody holds. A shim that opened
     * them earlier holds the pipe, so the answer reaches it even after our close. The directory is
     * renamed first, atomically: unlinking the FIFOs alone would let a late shim's {@code echo >pid}
     * create a regular file in it, racing our rmdir and leaving a file behind.
     */
    private void finish(final String word) {
        if (finished) {
            return;
        }
        finished = true;
        try {
            Path gone = dir.resolveSibling(dir.getFileName() + ".gone");
            try {
                Files.move(dir, gone, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                gone = dir;
            }
            StateDirs.deleteTree(gone);
        } finally {
            String line = word.replace('\n', ' ') + "\n";
            try (pidFifo; goFifo) {
                goFifo.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                // the shim's read then returns EOF, which it also treats as "not applied"
            }
        }
    }
}

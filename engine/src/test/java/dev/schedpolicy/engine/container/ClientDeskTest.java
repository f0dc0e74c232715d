package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real wrappers run by a real /bin/sh against a stand-in client that prints the arguments it was given. */
class ClientDeskTest {
    @TempDir
    Path tmp;

    private record Ran(int status, String out, String err) {
    }

    private Path fakeClient(final int status) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("real"));
        Path docker = dir.resolve("docker");
        Files.writeString(docker, "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\nexit " + status + "\n");
        Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private Ran run(final ClientDesk desk, final Path realDir, final String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script);
        pb.environment().put("PATH", desk.pathBefore("t", realDir + ":/usr/bin:/bin"));
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(p.waitFor(), out, err);
    }

    private Path privateDir() throws IOException {
        return Files.createDirectory(tmp.resolve("state"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    @Test
    void shouldRunTheRealClientWithTheLineTheOwnerRewroteArgumentsIntactAndItsStatus() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (ClientDesk desk = ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(),
                pid -> ClientDesk.descendsFrom(ProcFs.system(), pid, self), request -> {
                    asked.add(request.argv());
                    assertThat(request.key()).isEqualTo("t");
                    List<String> argv = new ArrayList<>(request.argv());
                    argv.add(2, "--cgroup-parent=/idle");
                    return new ClientDesk.Go(argv, "[schedpolicy] placed\nonce", java.util.Optional.of(() -> {
                        try {
                            Thread.sleep(300); // later than the client's end: the wrapper's subshell still says it
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return "[schedpolicy] verdict";
                    }));
                })) {
            Ran r = run(desk, fakeClient(7), "docker run 'a b' \"it's\" 'two\nlines' ''");
            assertThat(r.status()).as(r.err()).isEqualTo(7);
            assertThat(r.err()).isEqualTo("[schedpolicy] placed once\n[schedpolicy] verdict\n");
            assertThat(r.out()).isEqualTo("[run]\n[--cgroup-parent=/idle]\n[a b]\n[it's]\n[two\nlines]\n[]\n");
            assertThat(asked).containsExactly(List.of("docker", "run", "a b", "it's", "two\nlines", ""));
            assertThat(desk.bin("t").resolve("podman")).isExecutable();
        }
    }

    /** A desk that places nothing and whose verdict for every line comes {@code delayMillis} after it was asked. */
    private ClientDesk deskWithVerdict(final long delayMillis, final java.util.concurrent.CountDownLatch computed) throws IOException {
        long self = ProcessHandle.current().pid();
        return ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(), pid -> ClientDesk.descendsFrom(ProcFs.system(), pid, self),
                request -> new ClientDesk.Go(request.argv(), "[schedpolicy] placed", java.util.Optional.of(() -> {
                    try {
                        Thread.sleep(delayMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    computed.countDown();
                    return "[schedpolicy] verdict";
                }), true));
    }

    @Test
    void shouldSayADetachedRunsVerdictAfterItsClientAndBeforeTheWrapperEnds() throws Exception {
        // a step that ends right after 'docker run -d' loses every line said later: the verdict must come before the end
        try (ClientDesk desk = deskWithVerdict(300, new java.util.concurrent.CountDownLatch(1))) {
            Ran r = run(desk, fakeClient(0), "docker run -d x; echo \"ended $?\" >&2");
            assertThat(r.err()).isEqualTo("[schedpolicy] placed\n[schedpolicy] verdict\nended 0\n");
            assertThat(r.out()).isEqualTo("[run]\n[-d]\n[x]\n");
        }
    }

    @Test
    void shouldNotWaitForTheVerdictOfADetachedRunWhoseClientFailedNorLeaveIt() throws Exception {
        java.util.concurrent.CountDownLatch computed = new java.util.concurrent.CountDownLatch(1);
        Path answers = tmp.resolve("state/desk/answers");
        try (ClientDesk desk = deskWithVerdict(1_000, computed)) {
            Ran r = run(desk, fakeClient(3), "docker run -d x; echo \"ended $?\" >&2");
            assertThat(r.err()).as("the client's status, no verdict").isEqualTo("[schedpolicy] placed\nended 3\n");
            assertThat(computed.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            Thread.sleep(200); // the desk's write would follow the verdict at once
            try (var left = Files.list(answers)) {
                assertThat(left.toList()).as("no verdict file for a wrapper that is gone").isEmpty();
            }
        }
    }

    @Test
    void shouldSweepAnswersNobodyWillReadAndKeepThoseOfRunningWrappers() throws Exception {
        // a wrapper that gave up leaves the answer or verdict the desk wrote after: one file per such line, forever
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        long gone = ended.pid();
        long running = ProcessHandle.current().pid();
        java.time.Instant now = java.time.Instant.now();
        try (ClientDesk desk = ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(), pid -> true, r -> new ClientDesk.No("none"))) {
            Path answers = tmp.resolve("state/desk/answers");
            Path late = answered(answers, "v" + gone, now.minus(ClientDesk.STALE).minusSeconds(1));
            Path lateAnswer = answered(answers, Long.toString(gone), now.minus(ClientDesk.STALE).minusSeconds(1));
            Path fresh = answered(answers, gone + ".tmp", now.minusSeconds(5));
            Path waited = answered(answers, "v" + running, now.minus(ClientDesk.STALE).minusSeconds(1));
            Path abandoned = answered(answers, Long.toString(running), now.minus(ClientDesk.ABANDONED).minusSeconds(1));
            desk.sweepAnswers(now);
            assertThat(late).as("a verdict whose wrapper is gone").doesNotExist();
            assertThat(lateAnswer).as("an answer whose wrapper gave up and ended").doesNotExist();
            assertThat(fresh).as("a file written just now").exists();
            assertThat(waited).as("a detached run's verdict its wrapper still waits for").exists();
            assertThat(abandoned).as("older than any wrapper waits, though its PID still runs").doesNotExist();
        }
    }

    private static Path answered(final Path answers, final String name, final java.time.Instant at) throws IOException {
        Path file = answers.resolve(name);
        Files.writeString(file, "x\n");
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(at));
        return file;
    }

    @Test
    void shouldEndADetachedRunsWrapperByTheSignalItGotOnceItsClientReturned() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("slow"));
        Path started = tmp.resolve("started");
        Path done = tmp.resolve("done");
        Path docker = dir.resolve("docker");
        Files.writeString(docker, "#!/bin/sh\n: > '" + started + "'\nsleep 1\n: > '" + done + "'\nexit 0\n");
        Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwx------"));
        try (ClientDesk desk = deskWithVerdict(0, new java.util.concurrent.CountDownLatch(1))) {
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "exec docker run -d x");
            pb.environment().put("PATH", desk.pathBefore("t", dir + ":/usr/bin:/bin"));
            pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(started) && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(started).as("the client runs").exists();
            p.destroy(); // SIGTERM to the wrapper alone
            assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(done).as("the brief client ran to its end").exists();
            assertThat(p.exitValue()).as("ended by the SIGTERM it got (128 + 15)").isEqualTo(143);
        }
    }

    @Test
    void shouldRefuseWithTheOwnersReasonAndRunNothing() throws Exception {
        try (ClientDesk desk = ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(), pid -> true, request -> {
            throw new ContainerRefusal("'docker run' has option '--frobnicate', which this parser does not know");
        })) {
            Ran r = run(desk, fakeClient(0), "docker run --frobnicate img");
            assertThat(r.status()).isEqualTo(125);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).isEqualTo("schedpolicy: 'docker run' has option '--frobnicate', which this parser does not know\n");
        }
    }

    @Test
    void shouldRefuseAProcessTheOwnerDoesNotAcceptAndSayWhenNoRealClientExists() throws Exception {
        try (ClientDesk desk = ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(), pid -> false,
                request -> new ClientDesk.Go(request.argv()))) {
            Ran stranger = run(desk, fakeClient(0), "docker ps");
            assertThat(stranger.status()).isEqualTo(125);
            assertThat(stranger.err()).contains("is not a process of the policed command");
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "podman ps");
            pb.environment().put("PATH", desk.pathBefore("t", tmp.resolve("nowhere").toString()));
            Process p = pb.start();
            Ran missing = new Ran(p.waitFor(), "", new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            assertThat(missing.status()).isEqualTo(127);
            assertThat(missing.err()).contains("no 'podman' on PATH besides the policy's wrapper");
        }
    }

    @Test
    void shouldLeaveNothingBehindAndMakeALateWrapperGiveUpWithoutRunningItsLine() throws Exception {
        Path state = privateDir();
        ClientDesk desk = ClientDesk.open(state.resolve("desk"), ProcFs.system(), pid -> true, request -> new ClientDesk.Go(request.argv()));
        Path bin = desk.bin("t");
        desk.close();
        assertThat(state).isEmptyDirectory();
        Files.createDirectories(bin);
        Files.writeString(bin.resolve("docker"), "#!/bin/sh\n" + new String(ClientDesk.class.getResourceAsStream("client-wrapper.sh")
                .readAllBytes(), StandardCharsets.UTF_8).replace("@DESK@", "'" + state.resolve("desk") + "'"));
        Files.setPosixFilePermissions(bin.resolve("docker"), PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "docker ps");
        pb.environment().put("PATH", bin + ":" + fakeClient(0) + ":/usr/bin:/bin");
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(125);
        assertThat(err).contains("the policy's engine for this command is gone");
    }

    @Test
    void shouldRefuseAKeyThatIsNoPlainName() throws Exception {
        try (ClientDesk desk = ClientDesk.open(privateDir().resolve("desk"), ProcFs.system(), pid -> true, r -> new ClientDesk.Go(r.argv()))) {
            assertThatThrownBy(() -> desk.bin("../x")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("letters, digits");
        }
    }

    @Test
    void shouldRefuseADirectoryTheWrapperCouldNotQuote() {
        assertThatThrownBy(() -> ClientDesk.open(tmp.resolve("it's"), ProcFs.system(), pid -> true, r -> new ClientDesk.Go(r.argv())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not contain a quote");
    }
}

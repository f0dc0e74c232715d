package dev.schedpolicy.engine.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Asks the daemon a command line talks to for its cgroup driver ({@code docker info --format {{.CgroupDriver}}}),
 * with the same client, global options and environment (DOCKER_HOST, CONTAINER_HOST ...), so the answer is the
 * one daemon that will start the container. Answers are kept a minute per client line and the variables that choose the
 * daemon ({@link DaemonVariables}): a daemon's driver changes only when it restarts with other settings. The key is a
 * hash (a client line may carry a host with credentials), and at most {@link #MAX_ANSWERS} are kept: an agent lives for
 * months and its builds may name any number of daemons.
 */
public final class DriverQuery implements CgroupDrivers {
    private static final long TIMEOUT_SECONDS = 15;
    private static final long KEEP_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** At most this many answers are kept. */
    static final int MAX_ANSWERS = 32;

    private final Map<String, Answer> answers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Answer> eldest) {
            return size() > MAX_ANSWERS;
        }
    };
    private final java.time.Duration timeout;

    public DriverQuery() {
        this(java.time.Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    DriverQuery(final java.time.Duration timeout) {
        this.timeout = timeout;
    }

    private record Answer(CgroupDriver driver, long at) {
    }

    /**
     * @param env the environment the container command will run with
     * @throws ContainerRefusal when the client cannot tell (no daemon, unknown answer), with its own words
     */
    @Override
    public CgroupDriver driverFor(final ContainerCommand command, final Map<String, String> env) {
        List<String> query = new ArrayList<>();
        query.add(command.client());
        query.addAll(command.globalOptions());
        query.addAll(List.of("info", "--format", command.runtime().driverFormat()));
        String key = keyOf(query, DaemonVariables.of(env));
        long now = System.nanoTime();
        Answer a;
        synchronized (answers) {
            answers.values().removeIf(old -> now - old.at() > KEEP_NANOS);
            a = answers.get(key);
        }
        if (a == null) {
            a = new Answer(ask(query, env), now);
            synchronized (answers) {
                answers.put(key, a);
            }
        }
        return a.driver();
    }

    /** SHA-256 of the query and the choosing variables, each part ended by a NUL (no part can hold one). */
    private static String keyOf(final List<String> query, final Map<String, String> daemon) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        for (String part : query) {
            sha.update((part + '\0').getBytes(StandardCharsets.UTF_8));
        }
        daemon.forEach((name, value) -> sha.update((name + '=' + value + '\0').getBytes(StandardCharsets.UTF_8)));
        return HexFormat.of().formatHex(sha.digest());
    }

    /** Names only the client in its messages: global options may carry a host with credentials (-H tcp://user:pw@...). */
    private CgroupDriver ask(final List<String> query, final Map<String, String> env) {
        String client = "'" + query.get(0) + " info'";
        ClientCall.Answer answer;
        try {
            answer = ClientCall.run(query, env, timeout);
        } catch (ClientCall.TimedOut e) {
            throw new ContainerRefusal(client + " did not answer within " + timeout.toSeconds()
                    + " s (its daemon hangs or cannot be reached), so the daemon's cgroup driver is unknown and the container cannot be placed");
        } catch (IOException e) {
            throw new ContainerRefusal("cannot run " + client + " to ask the daemon for its cgroup driver: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContainerRefusal("interrupted while asking the daemon for its cgroup driver", e);
        }
        if (answer.status() != 0) {
            throw new ContainerRefusal("cannot ask the daemon for its cgroup driver: " + client + " exited " + answer.status() + ": "
                    + answer.firstLine());
        }
        return switch (answer.output()) {
            case "cgroupfs" -> CgroupDriver.CGROUPFS;
            case "systemd" -> CgroupDriver.SYSTEMD;
            default -> throw new ContainerRefusal("the daemon reports cgroup driver '" + answer.firstLine() + "' (" + client
                    + "); only cgroupfs and systemd are known, so the container cannot be placed");
        };
    }
}

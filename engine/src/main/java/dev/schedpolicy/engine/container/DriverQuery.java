package dev.schedpolicy.engine.container;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Asks the daemon a command line talks to for its cgroup driver ({@code docker info --format {{.CgroupDriver}}}),
 * with the same client, global options and environment (DOCKER_HOST, CONTAINER_HOST ...), so the answer is the
 * one daemon that will start the container. Answers are kept a minute per client line and environment: a
 * daemon's driver changes only when it restarts with other settings.
 */
public final class DriverQuery implements CgroupDrivers {
    private static final long TIMEOUT_SECONDS = 15;
    private static final long KEEP_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Map<List<String>, Answer> answers = new ConcurrentHashMap<>();
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
        List<String> key = new ArrayList<>(query);
        env.entrySet().stream().filter(e -> relevant(e.getKey())).sorted(Map.Entry.comparingByKey())
                .forEach(e -> key.add(e.getKey() + "=" + e.getValue()));
        long now = System.nanoTime();
        Answer a = answers.get(key);
        if (a == null || now - a.at() > KEEP_NANOS) {
            a = new Answer(ask(query, env), now);
            answers.put(key, a);
        }
        return a.driver();
    }

    /** The variables that choose a daemon or how to reach it. */
    private static boolean relevant(final String name) {
        return name.startsWith("DOCKER_") || name.startsWith("CONTAINER_") || "PATH".equals(name) || "HOME".equals(name)
                || "XDG_RUNTIME_DIR".equals(name);
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

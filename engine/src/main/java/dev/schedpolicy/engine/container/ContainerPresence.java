package dev.schedpolicy.engine.container;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a container still exists, asked of its daemon ({@code inspect --format {{.State.Status}}}) with the client,
 * global options and environment that started it. For agents that cannot see a container's processes in their own
 * /proc (Docker outside of Docker, a remote DOCKER_HOST), where the absence of processes says nothing.
 */
public final class ContainerPresence {
    /** What the daemon says. */
    public enum Answer {
        /** Running, paused, restarting, or created and not started yet: an exec may still join it. */
        PRESENT,
        /** Exited, dead, being removed, or unknown to the daemon. */
        GONE,
        /** The daemon could not be asked (unreachable, hung, no client): nothing to conclude. */
        UNKNOWN
    }

    private ContainerPresence() {
    }

    /** @param env the environment the container was started with (DOCKER_HOST ...) */
    public static Answer ask(final ContainerCommand started, final String id, final Map<String, String> env, final Duration bound) {
        List<String> query = new ArrayList<>();
        query.add(started.client());
        query.addAll(started.globalOptions());
        query.addAll(List.of("inspect", "--type", "container", "--format", "{{.State.Status}}", id));
        ClientCall.Answer answer;
        try {
            answer = ClientCall.run(query, env, bound);
        } catch (IOException e) {
            return Answer.UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.UNKNOWN;
        }
        String out = answer.output().toLowerCase(Locale.ROOT);
        if (answer.status() != 0) {
            return out.contains("no such") ? Answer.GONE : Answer.UNKNOWN;
        }
        return switch (out.lines().findFirst().orElse("").trim()) {
            case "running", "paused", "restarting", "created" -> Answer.PRESENT;
            case "exited", "dead", "removing", "stopped" -> Answer.GONE;
            default -> Answer.UNKNOWN;
        };
    }

    /**
     * Asks the daemon to kill a running container ({@code kill ID}) with the client, global options and environment that
     * started it; true when the client said yes. A container with --rm is then removed by its daemon, one without stays,
     * stopped, as after any other end.
     */
    public static boolean kill(final ContainerCommand started, final String id, final Map<String, String> env, final Duration bound) {
        List<String> call = new ArrayList<>();
        call.add(started.client());
        call.addAll(started.globalOptions());
        call.addAll(List.of("kill", id));
        try {
            return ClientCall.run(call, env, bound).status() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

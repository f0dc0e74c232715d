package dev.schedpolicy.engine.container;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Client lines that start containers or run a build's RUN steps where the wrappers cannot place them: the step still runs
 * them as given (refusing them would break builds that were fine before the block), and its output says so in one line,
 * so the silence is not taken for protection. BuildKit (buildx, and {@code docker build} under {@code DOCKER_BUILDKIT=1})
 * runs RUN steps itself and ignores {@code --cgroup-parent} (measured with dockerd 20.10: they ran under
 * /docker/buildkit); compose creates its containers through the daemon's API, with no client line to place.
 */
public final class UnplacedStarts {
    private static final Set<String> BUILDX_BUILDS = Set.of("build", "bake");
    private static final Set<String> COMPOSE_STARTS = Set.of("up", "run", "create", "start", "restart", "build");
    /** compose's own options that take a value (docker compose --help, Docker Compose 2.x). */
    private static final Set<String> COMPOSE_VALUED = Set.of("-f", "--file", "-p", "--project-name", "--env-file", "--profile",
            "--project-directory", "--ansi", "--progress", "--parallel");

    private UnplacedStarts() {
    }

    /**
     * The note for {@code argv}, a docker client line, when what it starts cannot be placed, without a prefix; empty for
     * every other line (those the wrappers place, those that start nothing, and lines of other clients).
     */
    public static Optional<String> noteFor(final List<String> argv, final String policyWords) {
        List<String> words = subcommand(argv);
        if (words.size() < 2) {
            return Optional.empty();
        }
        String line = "'docker " + words.get(0) + " " + words.get(1) + "'";
        if ("buildx".equals(words.get(0)) && BUILDX_BUILDS.contains(words.get(1))) {
            return Optional.of(line + " NOT placed: BuildKit runs its RUN steps itself and ignores the block's"
                    + " --cgroup-parent, so they run at the daemon's default, outside " + policyWords
                    + " ('DOCKER_BUILDKIT=0 docker build' runs them in the classic builder, which is placed)");
        }
        if ("compose".equals(words.get(0)) && COMPOSE_STARTS.contains(words.get(1))) {
            return Optional.of(line + " NOT placed: compose starts its containers through the daemon's API,"
                    + " not through a 'docker run' line, so they run at the daemon's default, outside " + policyWords);
        }
        return Optional.empty();
    }

    /** Whether a placed {@code docker build} runs under BuildKit by its environment, which ignores --cgroup-parent. */
    public static boolean buildKitChosen(final ContainerCommand build, final Map<String, String> env) {
        String v = env.getOrDefault("DOCKER_BUILDKIT", "");
        return build.runtime() == ContainerRuntime.DOCKER && ("1".equals(v) || "true".equalsIgnoreCase(v));
    }

    /** The note's tail for a placed build that {@link #buildKitChosen} says runs under BuildKit. */
    public static String buildKitTail() {
        return "its RUN steps are NOT placed: DOCKER_BUILDKIT=1 chooses BuildKit, which ignores --cgroup-parent"
                + " (DOCKER_BUILDKIT=0 chooses the classic builder, which follows it)";
    }

    /** The docker line's first two words after its global options (and compose's own), or fewer. */
    private static List<String> subcommand(final List<String> argv) {
        if (argv.isEmpty() || ContainerRuntime.ofProgram(argv.get(0)).filter(r -> r == ContainerRuntime.DOCKER).isEmpty()) {
            return List.of();
        }
        ContainerRuntime docker = ContainerRuntime.DOCKER;
        int i = skipOptions(argv, 1, docker.globalFlags(), docker.globalValued());
        if (i < 0 || i >= argv.size()) {
            return List.of();
        }
        String first = argv.get(i);
        Set<String> valued = "compose".equals(first) ? COMPOSE_VALUED : Set.of();
        int j = skipOptions(argv, i + 1, Set.of(), valued);
        return j < 0 || j >= argv.size() ? List.of(first) : List.of(first, argv.get(j));
    }

    /**
     * The index of the first word at or after {@code from} that is not an option; -1 when an option cannot be read (its
     * value could be the next word). Unknown options of a subcommand's own are taken as flags ({@code flags} empty).
     */
    private static int skipOptions(final List<String> argv, final int from, final Set<String> flags, final Set<String> valued) {
        int i = from;
        while (i < argv.size() && argv.get(i).startsWith("-") && !"-".equals(argv.get(i))) {
            String option = argv.get(i);
            if (option.contains("=") || flags.contains(option)) {
                i++;
            } else if (valued.contains(option)) {
                i += 2;
            } else if (flags.isEmpty()) {
                i++;
            } else {
                return -1;
            }
        }
        return i;
    }
}

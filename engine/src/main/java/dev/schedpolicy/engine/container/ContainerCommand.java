package dev.schedpolicy.engine.container;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code docker|podman [global options] [container] run|create|exec ...} or {@code ... [image|builder] build ...}
 * command line, read far enough to place the container: where the subcommand's own options end (new options go
 * there, after the command's own, so that where both set one, ours is the last and wins in the runtimes' parsers),
 * the options that matter for placement, and for exec the target container. Everything else on the line is left as it is. An option the
 * parser does not know makes the line {@link Unreadable}: guessing whether it takes a value could shift the parse.
 * Nothing here puts the line's arguments into a message: {@code -e K=V} carries credentials (docker-workflow
 * passes every step variable so, hidden only by the launcher's masks); messages name the line by {@link #describe()}.
 *
 * @param argv          the whole command line as given
 * @param runtime       docker or podman
 * @param action        run, create or exec
 * @param globalOptions the options between the program and the subcommand (-H, --context, --url ...), which
 *                      a query of the same daemon must repeat
 * @param insertAt      index in argv where the subcommand's options end: the image (run/create), the container
 *                      (exec), or a "--" before it
 * @param options       the subcommand's options up to the image (run/create) or container (exec), last value
 *                      per long name ("--cpus" -> "0.5"); flags and --env map to ""
 * @param target        exec: the container name or id; run/create: the image; build: the context
 * @param every         every value per long name, in order: options that may be given more than once (-v, --cap-add)
 *                      matter in each of their values; --env's are not kept
 */
public record ContainerCommand(List<String> argv, ContainerRuntime runtime, ContainerAction action, List<String> globalOptions,
        int insertAt, Map<String, String> options, String target, Map<String, List<String>> every) {

    public ContainerCommand {
        argv = List.copyOf(argv);
        globalOptions = List.copyOf(globalOptions);
        options = Map.copyOf(options);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        every.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        every = Map.copyOf(copy);
    }

    /** The outcome of reading a command line. */
    public sealed interface Parsed permits NotContainer, Unreadable, Container {
    }

    /** Not a container start: an ordinary command, or another subcommand of a runtime client (ps, stop, build ...). */
    public record NotContainer() implements Parsed {
    }

    /** A runtime client line we cannot read safely, so we cannot tell what it starts; the reason says which token. */
    public record Unreadable(String reason) implements Parsed {
    }

    public record Container(ContainerCommand command) implements Parsed {
    }

    public static Parsed parse(final List<String> argv) {
        if (argv.isEmpty()) {
            return new NotContainer();
        }
        Optional<ContainerRuntime> runtime = ContainerRuntime.ofProgram(argv.get(0));
        if (runtime.isEmpty()) {
            return new NotContainer();
        }
        ContainerRuntime rt = runtime.get();
        int i = 1;
        while (i < argv.size() && argv.get(i).startsWith("-") && !"-".equals(argv.get(i))) {
            String option = argv.get(i);
            if (option.contains("=") || rt.globalFlags().contains(option)) {
                i++;
            } else if (rt.globalValued().contains(option)) {
                i += 2;
            } else {
                // only the option's name: a short option's value may be attached (-Htcp://user:pw@host)
                String name = option.startsWith("--") ? option : option.substring(0, Math.min(2, option.length()));
                return new Unreadable("unknown global option '" + name + "' before the subcommand of a '" + rt.program()
                        + "' line: cannot tell whether it starts a container");
            }
        }
        if (i >= argv.size()) {
            return new NotContainer();
        }
        List<String> globals = argv.subList(1, i);
        String sub = argv.get(i);
        String group = null;
        if (isGroupWord(sub) && i + 1 < argv.size()) {
            group = sub;
            i++;
            sub = argv.get(i);
        }
        Optional<ContainerAction> action = ContainerAction.of(sub);
        // 'image build' and 'builder build' are build's aliases, 'container run' is run's; 'image run' is no subcommand
        if (action.isEmpty() || group != null && (action.get() == ContainerAction.BUILD) == "container".equals(group)) {
            return new NotContainer();
        }
        String line = "'" + rt.program() + " " + action.get().word() + "'";
        Options options = new Options();
        if (action.get() == ContainerAction.BUILD) {
            return parseBuild(argv, rt, globals, i + 1, line, options);
        }
        int j = i + 1;
        int optionsEnd = -1;
        while (j < argv.size() && argv.get(j).startsWith("-") && !"-".equals(argv.get(j))) {
            String token = argv.get(j);
            if ("--".equals(token)) {
                optionsEnd = j;
                j++;
                break;
            }
            try {
                j = readOption(rt, action.get(), argv, j, options);
            } catch (UnknownOption e) {
                return new Unreadable(line + " has option '" + e.getMessage() + "', which this parser does not know, so it cannot"
                        + " tell whether it takes a value and where the " + (action.get() == ContainerAction.EXEC ? "container" : "image")
                        + " is" + (e.getMessage().startsWith("--") ? ": write it as " + e.getMessage() + "=VALUE (a flag as "
                        + e.getMessage() + "=true)" : ": write it in its long form as --NAME=VALUE"));
            }
        }
        if (j >= argv.size()) {
            return new Unreadable(line + " names no " + (action.get() == ContainerAction.EXEC ? "container" : "image"));
        }
        return new Container(new ContainerCommand(argv, rt, action.get(), globals, optionsEnd >= 0 ? optionsEnd : j, options.last,
                argv.get(j), options.every));
    }

    private static boolean isGroupWord(final String word) {
        return "container".equals(word) || "image".equals(word) || "builder".equals(word);
    }

    /**
     * A build's options and its one context may come in any order (the clients' parsers intersperse them, unlike run's,
     * where what follows the image is the container's command), so new options go at the end, or before a "--".
     */
    private static Parsed parseBuild(final List<String> argv, final ContainerRuntime rt, final List<String> globals, final int first,
            final String line, final Options options) {
        List<Integer> contexts = new java.util.ArrayList<>();
        int insertAt = argv.size();
        int j = first;
        while (j < argv.size()) {
            String token = argv.get(j);
            if ("--".equals(token)) {
                insertAt = j;
                for (int k = j + 1; k < argv.size(); k++) {
                    contexts.add(k);
                }
                break;
            }
            if (!token.startsWith("-") || "-".equals(token)) {
                contexts.add(j);
                j++;
                continue;
            }
            try {
                j = readOption(rt, ContainerAction.BUILD, argv, j, options);
            } catch (UnknownOption e) {
                return new Unreadable(line + " has option '" + e.getMessage() + "', which this parser does not know, so it cannot"
                        + " tell whether it takes a value and which argument is the build context" + (e.getMessage().startsWith("--")
                        ? ": write it as " + e.getMessage() + "=VALUE (a flag as " + e.getMessage() + "=true)"
                        : ": write it in its long form as --NAME=VALUE"));
            }
        }
        if (contexts.size() > 1) {
            return new Unreadable(line + " names " + contexts.size() + " build contexts where it takes one");
        }
        if (contexts.isEmpty() && rt == ContainerRuntime.DOCKER) {
            return new Unreadable(line + " names no build context");
        }
        String context = contexts.isEmpty() ? "." : argv.get(contexts.get(0));
        return new Container(new ContainerCommand(argv, rt, ContainerAction.BUILD, globals, insertAt, options.last, context,
                options.every));
    }

    /** The options read so far: the last value per long name, and every value in order. */
    private static final class Options {
        private final Map<String, String> last = new LinkedHashMap<>();
        private final Map<String, List<String>> every = new LinkedHashMap<>();

        void put(final String name, final String value) {
            last.put(name, value);
            every.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(value);
        }
    }

    /** An option the parser does not know; the message is the option's name only (never its value). */
    private static final class UnknownOption extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownOption(final String name) {
            super(name, null, false, false);
        }
    }

    /**
     * Reads one option token (and its value), records long names; returns the index after it. The values of --env
     * are not kept: they carry credentials, and nothing here needs them.
     */
    private static int readOption(final ContainerRuntime rt, final ContainerAction action, final List<String> argv, final int j,
            final Options options) {
        String token = argv.get(j);
        if (token.startsWith("--")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                String name = token.substring(0, eq);
                options.put(name, ClientOptions.isEnvironment(name) ? "" : token.substring(eq + 1));
                return j + 1;
            }
            ClientOptions.Kind kind = ClientOptions.kindOf(rt, action, token).orElseThrow(() -> new UnknownOption(token));
            if (kind == ClientOptions.Kind.FLAG) {
                options.put(token, "");
                return j + 1;
            }
            options.put(token, ClientOptions.isEnvironment(token) || j + 1 >= argv.size() ? "" : argv.get(j + 1));
            return j + 2;
        }
        // a cluster of short options (-itd, -e X=1, -eX=1): flags until the first one that takes a value,
        // whose value is the rest of the token or the next token
        for (int k = 1; k < token.length(); k++) {
            char c = token.charAt(k);
            String longName = ClientOptions.longNameOf(rt, action, c).orElseThrow(() -> new UnknownOption("-" + c));
            if (ClientOptions.kindOf(rt, action, longName).orElse(ClientOptions.Kind.VALUED) == ClientOptions.Kind.FLAG) {
                options.put(longName, "");
                continue;
            }
            String value;
            int next;
            if (k + 1 < token.length()) {
                value = token.substring(k + 1);
                next = j + 1;
            } else {
                value = j + 1 < argv.size() ? argv.get(j + 1) : "";
                next = j + 2;
            }
            options.put(longName, ClientOptions.isEnvironment(longName) ? "" : value);
            return next;
        }
        return j + 1;
    }

    /** Every value of a long option, in the order given (empty when it is not given; "" for a flag). */
    public List<String> values(final String longName) {
        return every.getOrDefault(longName, List.of());
    }

    /** The value of a long option as given (the last one wins, as in the runtimes' own parsers). */
    public Optional<String> option(final String longName) {
        return Optional.ofNullable(options.get(longName));
    }

    /** The line in words that carry none of its arguments: {@code 'docker run'}. */
    public String describe() {
        return "'" + runtime.program() + " " + action.word() + "'";
    }

    /** The client program as given (a path or a name). */
    public String client() {
        return argv.get(0);
    }

    /** argv with {@code tokens} inserted where the command's own options end. */
    public List<String> withOptions(final List<String> tokens) {
        List<String> all = new java.util.ArrayList<>(argv.subList(0, insertAt));
        all.addAll(tokens);
        all.addAll(argv.subList(insertAt, argv.size()));
        return all;
    }
}

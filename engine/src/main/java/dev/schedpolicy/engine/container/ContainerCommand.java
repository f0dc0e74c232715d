package dev.schedpolicy.engine.container;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code docker|podman [global options] [container] run|create|exec ...} command line, read far enough to
 * place the container: where the subcommand's own options begin (new options go right after the subcommand
 * token, which is before the image on every runtime version), the options that matter for placement, and
 * for exec the target container. Everything else on the line is left as it is.
 *
 * @param argv          the whole command line as given
 * @param runtime       docker or podman
 * @param action        run, create or exec
 * @param globalOptions the options between the program and the subcommand (-H, --context, --url ...), which
 *                      a query of the same daemon must repeat
 * @param insertAt      index in argv right after the subcommand token
 * @param options       the subcommand's options up to the image (run/create) or container (exec), last value
 *                      per long name ("--cpus" -> "0.5"); flags map to ""
 * @param target        exec: the container name or id; run/create: the image
 */
public record ContainerCommand(List<String> argv, ContainerRuntime runtime, ContainerAction action, List<String> globalOptions,
        int insertAt, Map<String, String> options, String target) {

    public ContainerCommand {
        argv = List.copyOf(argv);
        globalOptions = List.copyOf(globalOptions);
        options = Map.copyOf(options);
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
                return new Unreadable("unknown global option '" + option + "' before the subcommand of '" + String.join(" ", argv)
                        + "': cannot tell whether it starts a container");
            }
        }
        if (i >= argv.size()) {
            return new NotContainer();
        }
        List<String> globals = argv.subList(1, i);
        String sub = argv.get(i);
        if ("container".equals(sub) && i + 1 < argv.size()) {
            i++;
            sub = argv.get(i);
        }
        Optional<ContainerAction> action = ContainerAction.of(sub);
        if (action.isEmpty()) {
            return new NotContainer();
        }
        int insertAt = i + 1;
        Map<String, String> options = new LinkedHashMap<>();
        int j = insertAt;
        while (j < argv.size() && argv.get(j).startsWith("-") && !"-".equals(argv.get(j))) {
            String token = argv.get(j);
            if ("--".equals(token)) {
                j++;
                break;
            }
            j = readOption(rt, argv, j, options);
        }
        if (j >= argv.size()) {
            return new Unreadable("'" + String.join(" ", argv) + "' names no " + (action.get() == ContainerAction.EXEC ? "container" : "image"));
        }
        return new Container(new ContainerCommand(argv, rt, action.get(), globals, insertAt, options, argv.get(j)));
    }

    /** Reads one option token (and its value), records long names; returns the index after it. */
    private static int readOption(final ContainerRuntime rt, final List<String> argv, final int j,
            final Map<String, String> options) {
        String token = argv.get(j);
        if (token.startsWith("--")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                options.put(token.substring(0, eq), token.substring(eq + 1));
                return j + 1;
            }
            if (rt.subcommandFlags().contains(token)) {
                options.put(token, "");
                return j + 1;
            }
            options.put(token, j + 1 < argv.size() ? argv.get(j + 1) : "");
            return j + 2;
        }
        // a cluster of short options (-itd, -e X=1, -eX=1): flags until the first one that takes a value,
        // whose value is the rest of the token or the next token
        for (int k = 1; k < token.length(); k++) {
            char c = token.charAt(k);
            String longName = rt.longNameOf(c);
            if (rt.shortFlags().indexOf(c) >= 0) {
                if (longName != null) {
                    options.put(longName, "");
                }
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
            options.put(longName != null ? longName : "-" + c, value);
            return next;
        }
        return j + 1;
    }

    /** The value of a long option as given (the last one wins, as in the runtimes' own parsers). */
    public Optional<String> option(final String longName) {
        return Optional.ofNullable(options.get(longName));
    }

    /** The client program as given (a path or a name). */
    public String client() {
        return argv.get(0);
    }

    /** argv with {@code tokens} inserted right after the subcommand. */
    public List<String> withOptions(final List<String> tokens) {
        List<String> all = new java.util.ArrayList<>(argv.subList(0, insertAt));
        all.addAll(tokens);
        all.addAll(argv.subList(insertAt, argv.size()));
        return all;
    }
}

package dev.schedpolicy.cli;

import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command's --help renders cleanly: picocli reports format errors (a bare '%') on System.err, not in the help. */
class HelpRenderingTest {
    static Stream<List<String>> commands() {
        List<List<String>> all = new ArrayList<>();
        collect(Main.commandLine(), new ArrayList<>(), all);
        return all.stream();
    }

    private static void collect(final CommandLine cl, final List<String> path, final List<List<String>> into) {
        into.add(List.copyOf(path));
        cl.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().aliases().length == 0 || !List.of(sub.getCommandSpec().aliases()).contains(name)) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, next, into);
            }
        });
    }

    @ParameterizedTest(name = "schedpolicy {0} --help")
    @MethodSource("commands")
    @ResourceLock(Resources.SYSTEM_ERR)
    void shouldRenderHelpWithoutPicocliWarnings(final List<String> command) {
        List<String> args = new ArrayList<>(command);
        args.add("--help");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int code;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            CommandLine cl = Main.commandLine(args.toArray(String[]::new));
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute(args.toArray(String[]::new));
        } finally {
            System.setErr(saved);
        }
        String help = out.toString();
        assertThat(code).isZero();
        assertThat(stderr.toString(StandardCharsets.UTF_8) + err).as("warnings while rendering").isEmpty();
        assertThat(help).contains("Usage: schedpolicy").doesNotContain("%n").endsWith("\n");
        assertThat(help.lines()).as("lines of at most 80 columns").allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    }

    /** The command list shows each command's first line: a sentence cut at the column (as before) reads as broken. */
    @org.junit.jupiter.api.Test
    void shouldSummariseEveryCommandInOneCompleteSentenceOnOneLine() {
        StringWriter out = new StringWriter();
        CommandLine cl = Main.commandLine("--help");
        cl.setOut(new PrintWriter(out, true));
        assertThat(cl.execute("--help")).isZero();
        List<String> lines = out.toString().lines().toList();
        List<String> commands = lines.subList(lines.indexOf("Commands:") + 1, lines.size()).stream()
                .takeWhile(l -> !l.isBlank()).toList();
        assertThat(commands).as("one line per command, none continued").hasSize(Main.commandLine().getSubcommands().size())
                .allSatisfy(l -> assertThat(l).matches("  [a-z]+ +[A-Z][^.]*\\."));
    }
}
